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
        /// The bfloat16 or float16 kernel set a test pins, or nil: the CPU's own.
        package let pinnedReduced: ReducedKernels?
        /// Whether it reads the network input.
        package let readsNetworkInput: Bool
        /// The algorithm the planner takes for it in float32 (planned for bfloat16 and float16
        /// precisions only).
        package let floatAlgorithm: ConvolutionAlgorithm?
        /// The planner's tuning (where bfloat16's own Winograd takes over from float32's).
        package var tuning = ConvolutionTuning()

        /// Whether an int8 precision keeps it from 8 bits (its integer input quantization is
        /// 16-bit).
        var keptFromEightBits: Bool { integer.map { !$0.isEightBit } ?? false }

        /// The kernels this convolution would run in the precision's 16-bit arithmetic: the
        /// pinned set if it is of that arithmetic, else the CPU's; nil for other precisions.
        var reducedKernels: ReducedKernels? {
            precision.reducedArithmetic.flatMap { cpu.reducedKernels(for: $0, pinned: pinnedReduced) }
        }
    }

    /// One entry of the list: an arithmetic, when it applies, and why (for `info --plan`).
    package struct Rule: Sendable {
        package let arithmetic: Arithmetic
        package let reason: String
        let applies: @Sendable (Candidate) -> Bool
    }

    /// Every rule, in the order the planner tries them; the last always applies.
    package static let rules: [Rule] = integerRules + bfloat16Rules + float16Rules + floatRules

    static let integerRules: [Rule] = [
        // int8's remainder in bfloat16 where the CPU multiplies it: on a Zen 4 core the bfloat16
        // GEMM took YOLOv3's 3x3/2 32 -> 64 at 416 in 11.0-11.4 ms against 16-bit integers' 13.3,
        // its heads 0.43-1.9 against 0.55-2.0, and kept YOLOv3-tiny's detections as 16 bits did
        // (Arithmetic/README.md, "int8's remainder in bfloat16").
        Rule(arithmetic: .bfloat16, reason: "int8 precision keeps it from 8 bits, in bfloat16 (the CPU multiplies bfloat16)") {
            $0.keptFromEightBits && $0.cpu.reducedKernels(for: .bfloat16, pinned: $0.pinnedReduced) != nil
                && ReducedConvolutionShapes.takes($0.shapes)
        },
        Rule(arithmetic: .int16, reason: "int8 precision keeps it from 8 bits, in 16-bit integers") { $0.keptFromEightBits },
        Rule(arithmetic: .int8, reason: "int8 precision, calibrated") { $0.integer?.isEightBit == true },
    ]

    static let bfloat16Rules = reducedRules(.bfloat16, "bfloat16", input: "pixels need more than bfloat16's 8 significant bits")

    // float16's 11 significant bits may carry pixels well enough; kept in float32 as bfloat16 does, not measured.
    static let float16Rules = reducedRules(.float16, "float16", input: "as bfloat16 does; not measured in float16")

    static let floatRules: [Rule] = [
        Rule(arithmetic: .float32, reason: "int8 precision keeps it in float") { $0.precision.calibration != nil },
        Rule(arithmetic: .float32, reason: "float32 precision") { _ in true },
    ]

    /// The rules of a 16-bit float precision (`.bfloat16`, `.float16`), each applying only to it:
    /// float32 where the CPU has no products in it, for the network input (`input` says why),
    /// where float32's Winograd (or, against float16, sliding window) is faster, and for grouped
    /// convolutions.
    static func reducedRules(_ arithmetic: Arithmetic, _ name: String, input: String) -> [Rule] {
        let asks: @Sendable (Candidate) -> Bool = { $0.precision.reducedArithmetic == arithmetic }
        let fasterFloat = ReducedConvolutionShapes.fasterFloatAlgorithms(than: arithmetic)
        return [
            Rule(arithmetic: .float32, reason: "\(name) precision, but the CPU has no \(name) products") {
                asks($0) && $0.reducedKernels == nil
            },
            // YOLOv3-tiny, real weights, 26 photos: with the input's convolution in bfloat16 too, 96-97 %
            // of float32's detections kept and 6-7 % added; in float32, all kept, none added.
            Rule(arithmetic: .float32, reason: "\(name) precision keeps the network input's convolution in float32 (\(input))") {
                asks($0) && $0.readsNetworkInput
            },
            // The bfloat16 GEMM runs at about twice float32's rate (530 against 270 GFLOPS, one Zen 5
            // core; 210 against 110 on a Zen 4), but Winograd over a large output does a quarter of the
            // multiplications: YOLOv3-tiny's 26x26 384 -> 256 took 3.9 ms in bfloat16, 2.0 in float32's
            // Winograd (Zen 5). bfloat16's own Winograd holds out longer on x86-64: F(2x2, 3x3) to
            // 38x38, F(3x3, 3x3) to 104x104 from 128 channels (`ReducedConvolutionShapes.floatIsFaster`).
            // The sliding window reads
            // few channels without an im2col, which beats float16's FMLAL (4 lanes per instruction,
            // float32's FMLA rate; not measured on arm64) but not bfloat16 since its input is paired
            // once (208x208 16 -> 32: 2.3 ms against 4.5, Zen 4).
            Rule(arithmetic: .float32, reason: "\(name) precision, but float32's \(fasterFloat) is faster here") {
                guard asks($0), let floatAlgorithm = $0.floatAlgorithm, let kernels = $0.reducedKernels else { return false }
                return ReducedConvolutionShapes.floatIsFaster(floatAlgorithm, $0.shapes, on: kernels, tuning: $0.tuning)
            },
            Rule(arithmetic: arithmetic, reason: "\(name) precision, and the CPU multiplies \(name)") {
                asks($0) && $0.reducedKernels != nil && ReducedConvolutionShapes.takes($0.shapes)
            },
            Rule(arithmetic: .float32, reason: "\(name) precision, but no \(name) algorithm computes grouped convolutions") {
                asks($0)
            },
        ]
    }

    /// The first rule that applies to `candidate`.
    package static func rule(for candidate: Candidate) -> Rule {
        rules.first { $0.applies(candidate) } ?? rules[rules.count - 1]
    }
}
