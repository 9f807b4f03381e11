/// How the planner picks a convolution's arithmetic: the first rule of `rules`, in order, that
/// holds for the convolution, from the network, the options and the CPU only. The algorithm is
/// then chosen among those computing in that arithmetic (`ConvolutionChoice`).
///
/// Which calibrated convolutions an int8 precision runs in integers (and which of them in 16
/// bits) is `IntegerLayers`, whose answer the candidate carries.
package enum ArithmeticChoice {
    /// What the rules read of a convolution.
    package struct Candidate {
        package let shapes: ConvolutionShapes
        package let precision: Precision
        package let cpu: CPUFeatures
        /// The integer input quantization `IntegerLayers` gives it, or nil.
        package let integer: Int8LayerQuantization?
        /// The bfloat16 kernel set a test pins, or nil: the CPU's own.
        package let pinnedReduced: ReducedKernels?
        /// Whether it reads the network input.
        package let readsNetworkInput: Bool
        /// The algorithm the planner takes for it in float32 (planned for a bfloat16 precision only).
        package let floatAlgorithm: ConvolutionAlgorithm?

        /// The bfloat16 kernels this convolution would run: the pinned set, else the CPU's.
        var reducedKernels: ReducedKernels? { pinnedReduced ?? cpu.reducedKernels }
    }

    /// One entry of the list: an arithmetic, when it applies, and why (for `info --plan`).
    package struct Rule: Sendable {
        package let arithmetic: Arithmetic
        package let reason: String
        let applies: @Sendable (Candidate) -> Bool
    }

    /// Every rule, in the order the planner tries them; the last always applies.
    package static let rules: [Rule] = [
        Rule(arithmetic: .int16, reason: "int8 precision keeps it from 8 bits, in 16-bit integers") {
            $0.integer.map { !$0.isEightBit } ?? false
        },
        Rule(arithmetic: .int8, reason: "int8 precision, calibrated") { $0.integer?.isEightBit == true },
        Rule(arithmetic: .float32, reason: "bfloat16 precision, but the CPU has no bfloat16 products") {
            $0.precision == .bfloat16 && $0.reducedKernels == nil
        },
        // YOLOv3-tiny, real weights, 26 photos: with the input's convolution in bfloat16 too, 96-97 %
        // of float32's detections kept and 6-7 % added; in float32, all kept, none added.
        Rule(arithmetic: .float32, reason: "bfloat16 precision keeps the network input's convolution in float32 (pixels need more than bfloat16's 8 significant bits)") {
            $0.precision == .bfloat16 && $0.readsNetworkInput
        },
        // The bfloat16 GEMM runs at about twice float32's rate (530 against 270 GFLOPS, one Zen 5
        // core), but Winograd over a large output does a quarter of the multiplications, and the
        // sliding window reads few channels without an im2col: YOLOv3-tiny's 26x26 384 -> 256 took
        // 3.9 ms in bfloat16, 2.0 in float32's Winograd; 208x208 16 -> 32, 12 against 2.
        Rule(arithmetic: .float32, reason: "bfloat16 precision, but float32's Winograd or sliding window is faster here") {
            guard $0.precision == .bfloat16, let floatAlgorithm = $0.floatAlgorithm else { return false }
            return BFloat16Convolution.floatIsFaster(floatAlgorithm, $0.shapes)
        },
        Rule(arithmetic: .bfloat16, reason: "bfloat16 precision, and the CPU multiplies bfloat16") {
            $0.precision == .bfloat16 && $0.reducedKernels != nil && BFloat16Convolution.takes($0.shapes)
        },
        Rule(arithmetic: .float32, reason: "bfloat16 precision, but no bfloat16 algorithm computes grouped convolutions") {
            $0.precision == .bfloat16
        },
        Rule(arithmetic: .float32, reason: "int8 precision keeps it in float") { $0.precision.calibration != nil },
        Rule(arithmetic: .float32, reason: "float32 precision") { _ in true },
    ]

    /// The first rule that applies to `candidate`.
    package static func rule(for candidate: Candidate) -> Rule {
        rules.first { $0.applies(candidate) } ?? rules[rules.count - 1]
    }
}
