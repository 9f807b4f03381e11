/// The arithmetic a network's convolutions run in (`PlanOptions.precision`).
public enum Precision: Sendable, Equatable {
    /// 32-bit float everywhere: Darknet's own results, the default.
    case float32
    /// int8 convolutions: each convolution `calibration` covers reads its float input quantized
    /// to 8-bit codes with the calibrated scale and zero point (per tensor), multiplies them by
    /// its weights quantized at load (batch norm folded first, then symmetric int8 per output
    /// channel), and writes float outputs after the fused bias and activation. The layers
    /// `floatLayers` names stay in float, as do convolutions the int8 kernels do not compute
    /// (groups, dilation, unequal strides, activations other than linear, leaky, relu, logistic,
    /// mish and swish). Tensors between layers stay float, except where an int8 convolution's
    /// only reader is the int8 convolution after it (or a max pool that one alone reads) and the
    /// session does not keep those outputs: it writes 8-bit codes in its reader's input
    /// quantization, the same codes the reader would have made of the floats
    /// (`NetworkPlan.int8CodeOutputs`, `int8CodePools`).
    case int8(Int8Calibration, floatLayers: Int8FloatLayers = .default)

    /// The calibration of `.int8`, nil for `.float32`.
    public var calibration: Int8Calibration? {
        if case .int8(let calibration, _) = self { calibration } else { nil }
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

    public init(minimumInputChannels: Int, heads: Bool) {
        self.minimumInputChannels = minimumInputChannels
        self.heads = heads
    }

    /// The default: convolutions reading fewer than 64 channels and those feeding detection
    /// heads stay float (YOLOv3-tiny: layers 0, 2, 4, 15 and 22 of its 13 convolutions;
    /// YOLOv3: 0, 1, 3, 81, 93 and 105 of 75).
    public static let `default` = Int8FloatLayers(minimumInputChannels: 64, heads: true)
    /// The convolutions reading the 3-channel network input and those feeding detection heads.
    public static let inputAndHeads = Int8FloatLayers(minimumInputChannels: 4, heads: true)
    /// None: every convolution the int8 kernels compute runs in int8.
    public static let none = Int8FloatLayers(minimumInputChannels: 0, heads: false)

    /// Whether the convolution at `index` of `spec`, reading `inputChannels`, stays float.
    func keepsFloat(_ index: Int, inputChannels: Int, in spec: NetworkSpec) -> Bool {
        if inputChannels < minimumInputChannels { return true }
        return heads && index + 1 < spec.layers.count && spec.layers[index + 1].kind.isDetectionHead
    }
}
