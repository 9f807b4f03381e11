/// The arithmetic a network's convolutions run in (`PlanOptions.precision`).
public enum Precision: Sendable, Equatable {
    /// 32-bit float everywhere: Darknet's own results, the default.
    case float32
    /// int8 convolutions: each convolution `calibration` covers reads its float input quantized
    /// to 8-bit codes with the calibrated scale and zero point (per tensor), multiplies them by
    /// its weights quantized at load (batch norm folded first, then symmetric int8 per output
    /// channel; 7 bits on a CPU without VNNI, `Int8FloatLayers.minimumDepthWithoutVNNI`), and
    /// writes float outputs after the fused bias and activation. The layers
    /// `floatLayers` names keep 8 bits away (16-bit integers or float, `Int8FloatLayers`); float
    /// also computes the convolutions the int8 kernels do not (groups, dilation, unequal
    /// strides, activations other than linear, leaky, relu, logistic, mish and swish). Tensors
    /// between layers stay float, except where an 8-bit convolution's only reader is the 8-bit
    /// convolution after it (or a max pool that one alone reads) and the session does not keep
    /// those outputs: it writes 8-bit codes in its reader's input quantization, the same codes
    /// the reader would have made of the floats (`NetworkPlan.int8CodeOutputs`, `int8CodePools`).
    case int8(Int8Calibration, floatLayers: Int8FloatLayers = .default)
    /// bfloat16 convolutions, no calibration: the weights are rounded to bfloat16 at load (batch
    /// norm folded first), each convolution rounds its float input to bfloat16 and sums the
    /// products in float32 (`Arithmetic.bfloat16`), with bias and activation in float32. Tensors
    /// between layers stay float32. Where the CPU has no bfloat16 products (x86-64 without
    /// AVX512_BF16, arm64 without FEAT_BF16), or no bfloat16 algorithm computes a
    /// convolution (groups), the convolution stays float32 (`info --plan` says which and why).
    case bfloat16
    /// IEEE half-precision (float16) convolutions, no calibration: the weights are rounded to
    /// half precision at load (batch norm folded first), each convolution rounds its float input
    /// to half precision (values beyond 65504 become infinite) and sums the exact products in
    /// float32, one rounding per addition (`Arithmetic.float16`; arm64 with FEAT_FHM), or, on an
    /// arm64 CPU with FEAT_FP16 but not FEAT_FHM (Cortex-A76, Raspberry Pi 5, Neoverse N1), in
    /// half-precision sums of 8 products each added into float32; bias and activation in
    /// float32. Tensors between layers stay float32. The network input's convolution stays
    /// float32, as do convolutions on a CPU without float16 products (x86-64, arm64 without
    /// FEAT_FP16) and grouped ones (`info --plan` says which and why).
    ///
    /// ```swift
    /// let precision: Precision = CPUFeatures.current.extensions.contains(.fp16) ? .float16 : .float32
    /// let network = try Network(cfg: cfgURL, weights: weightsURL, options: PlanOptions(precision: precision))
    /// ```
    case float16

    /// The fastest precision `cpu` computes that needs no calibration: `.bfloat16` where it has
    /// bfloat16 kernels (`Arithmetic.bfloat16`: AVX512_BF16, arm64 BF16), else `.float16` where it has float16 kernels
    /// (arm64 with FEAT_FP16), else `.float32` (`--precision auto`).
    public static func fastestUncalibrated(on cpu: CPUFeatures) -> Precision {
        if cpu.reducedKernels(for: .bfloat16) != nil { return .bfloat16 }
        return cpu.reducedKernels(for: .float16) != nil ? .float16 : .float32
    }

    /// The 16-bit float arithmetic `.bfloat16` and `.float16` ask for, nil for the others.
    package var reducedArithmetic: Arithmetic? {
        switch self {
        case .bfloat16: .bfloat16
        case .float16: .float16
        case .float32, .int8: nil
        }
    }

    /// The calibration of `.int8`, nil for `.float32`, `.bfloat16` and `.float16`.
    public var calibration: Int8Calibration? {
        if case .int8(let calibration, _) = self { calibration } else { nil }
    }
}

extension Precision: CustomStringConvertible {
    /// `float32`, or `int8` with how many convolutions the calibration covers (not its ranges).
    public var description: String {
        switch self {
        case .float32: "float32"
        case .bfloat16: "bfloat16"
        case .float16: "float16"
        case .int8(let calibration, _):
            "int8 (\(counted(calibration.layers.count, "calibrated convolution")))"
        }
    }
}

/// Which calibrated convolutions an int8 network keeps in float.
///
/// Measured on YOLOv3-tiny (README, int8 section): the convolutions reading few channels are
/// where 8 bits cost the most accuracy. Their dot products are short (K = 9 x channels), so
/// the rounding of each product does not average out, and the early layers' activations span
/// wide ranges (YOLOv3-tiny's second convolution reads values from -4 to 54, most of them
/// near 0): one of them alone in int8 moves the [yolo] outputs more than any deep layer does,
/// and clipping its range makes it worse. They hold a small share of the arithmetic.
public struct Int8FloatLayers: Sendable, Equatable {
    /// Convolutions reading fewer channels than this stay float (the network input's 3
    /// channels included).
    public var minimumInputChannels: Int
    /// Whether the convolutions whose output a detection head (`[yolo]`, `[region]`,
    /// `[detection]`) reads stay float: their raw values become box coordinates and
    /// probabilities, and they hold little of the arithmetic.
    public var heads: Bool
    /// Whether the convolutions `minimumInputChannels` keeps from 8 bits, except the one reading
    /// the network input, run in 16-bit integers (`.int16Direct`: activations and weights of
    /// about 12 bits each, so that the int32 sums stay exact) where that kernel computes them
    /// (stride 1 with a window, or stride 2, over whole pairs of channels), instead of in float: the small activations 8 bits round away keep their value (YOLOv3-tiny's
    /// second convolution reads -4 to 54: steps of 0.23 in 8 bits, 0.015 in 12), at twice
    /// float's multiply rate. The network input's convolution stays float (its float kernel
    /// fuses the max pool after it).
    public var sixteenBitEarlyLayers: Bool
    /// Whether the convolutions `heads` keeps from 8 bits run in 16-bit integers (`.int16Direct`,
    /// float output, as the early ones) instead of in float, where that kernel computes them:
    /// the heads' 1x1 convolutions read hundreds of channels, so 16-bit codes keep their inputs
    /// to about 1/3000 of their range and the sums stay exact, at twice float's multiply rate.
    public var sixteenBitHeads: Bool
    /// On a CPU without VNNI (AVX2 only), convolutions whose dot products are shorter than this
    /// (K = input channels / groups x size x size) stay float, 16-bit ones included, and the
    /// deeper ones run with 7-bit weights: without VNNI, exact 8-bit weights (`vpmaddubsw` on
    /// nibble-split activations) and 16 bits (`vpmaddwd`) multiply no faster than float, and
    /// 7-bit weights cost accuracy where K is short (`CDarknetKernels/integer.h`,
    /// Sources/Darknet/Arithmetic/README.md). No effect on CPUs with VNNI.
    public var minimumDepthWithoutVNNI: Int

    public init(minimumInputChannels: Int, heads: Bool, sixteenBitEarlyLayers: Bool = false,
                sixteenBitHeads: Bool = false, minimumDepthWithoutVNNI: Int = 0) {
        self.minimumInputChannels = minimumInputChannels
        self.heads = heads
        self.sixteenBitEarlyLayers = sixteenBitEarlyLayers
        self.sixteenBitHeads = sixteenBitHeads
        self.minimumDepthWithoutVNNI = minimumDepthWithoutVNNI
    }

    /// The default: convolutions reading fewer than 64 channels and those feeding detection
    /// heads keep 8 bits away; all but the network input's run in bfloat16 where the CPU
    /// multiplies it (AVX512_BF16, arm64 BF16), else in 16-bit integers where `.int16Direct`
    /// computes them, the rest in float (YOLOv3-tiny: 2, 4, 15 and 22 in bfloat16 or 16 bits,
    /// 0 in float, of its 13 convolutions; YOLOv3: 1, 3, 81, 93 and 105, 0 in float, of 75).
    /// Without VNNI, convolutions with K under 2304 stay float as well (YOLOv3-tiny: all but
    /// 10, 12, 14 and 21).
    public static let `default` = Int8FloatLayers(minimumInputChannels: 64, heads: true, sixteenBitEarlyLayers: true,
                                                  sixteenBitHeads: true,
                                                  minimumDepthWithoutVNNI: IntegerKernels.narrowDepth)
    /// The default's choice with its early and head convolutions in float, not 16 bits (the
    /// default before `.int16Direct`); without VNNI, the default's choice itself (K under 2304
    /// in float).
    public static let floatEarly = Int8FloatLayers(minimumInputChannels: 64, heads: true,
                                                   minimumDepthWithoutVNNI: IntegerKernels.narrowDepth)
    /// The convolutions reading the 3-channel network input and those feeding detection heads.
    public static let inputAndHeads = Int8FloatLayers(minimumInputChannels: 4, heads: true)
    /// None: every convolution the int8 kernels compute runs in int8.
    public static let none = Int8FloatLayers(minimumInputChannels: 0, heads: false)

    /// Whether the convolution at `index` of `spec`, reading `inputChannels`, keeps 8-bit
    /// activations away (float, or 16 bits by `readsSixteenBits`).
    func keepsFloat(_ index: Int, inputChannels: Int, in spec: NetworkSpec) -> Bool {
        if inputChannels < minimumInputChannels { return true }
        return feedsHead(index, in: spec)
    }

    /// Whether the convolution at `index`, reading `inputChannels`, stays float because `cpu`
    /// multiplies 8 bits without a dot-product instruction and its K is under
    /// `minimumDepthWithoutVNNI`.
    func tooShallow(_ index: Int, inputChannels: Int, in spec: NetworkSpec, on cpu: CPUFeatures) -> Bool {
        guard cpu.int8WithoutDotProduct, case .convolutional(let conv) = spec.layers[index].kind else { return false }
        return inputChannels / max(conv.groups, 1) * conv.size * conv.size < minimumDepthWithoutVNNI
    }

    /// Whether that convolution, kept from 8 bits, runs in 16-bit integers instead of float
    /// (where `.int16Direct` computes it; else the planner keeps it float).
    func readsSixteenBits(_ index: Int, inputChannels: Int, in spec: NetworkSpec) -> Bool {
        if feedsHead(index, in: spec) { return sixteenBitHeads }
        return sixteenBitEarlyLayers && index > 0 && inputChannels < minimumInputChannels
    }

    private func feedsHead(_ index: Int, in spec: NetworkSpec) -> Bool {
        heads && index + 1 < spec.layers.count && spec.layers[index + 1].kind.isDetectionHead
    }
}
