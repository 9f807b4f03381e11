import Foundation

/// Darknet's element-wise activation functions, by their cfg names (pjreddie's set plus the
/// element-wise ones AlexeyAB's fork adds: `relu6`, `gelu`, `swish`, `mish`, `hard_mish`,
/// `revleaky`).
public enum Activation: String, Sendable, CaseIterable {
    case logistic, loggy, relu, elu, selu, relie, plse, hardtan, lhtan, linear, ramp, leaky, tanh, stair
    case relu6, gelu, swish, mish
    case hardMish = "hard_mish"
    case revleaky

    /// AlexeyAB's cross-channel "activations": they normalise each pixel over all channels, so
    /// they are not element-wise and not implemented.
    static let crossChannelNames: Set<String> = [
        "normalize_channels", "normalize_channels_softmax", "normalize_channels_softmax_maxval",
    ]
}

extension Activation {
    /// The threshold of the softplus inside AlexeyAB's mish (`MISH_THRESHOLD`).
    @usableFromInline static let mishThreshold: Float = 20

    /// The activation of one value, exactly as Darknet's `activate` (and, for the AlexeyAB
    /// additions, its `activate_array_*` functions) define it.
    @inlinable
    public func apply(_ x: Float) -> Float {
        switch self {
        case .linear: return x
        case .leaky, .revleaky: return x > 0 ? x : 0.1 * x
        case .logistic: return 1 / (1 + expf(-x))
        case .relu: return x > 0 ? x : 0
        case .relie: return x > 0 ? x : 0.01 * x
        case .ramp: return (x > 0 ? x : 0) + 0.1 * x
        case .tanh:
            // Darknet's `exp` is the double one: in float, e^(2x) overflows from x = 44.4 and the
            // quotient becomes inf / inf = NaN where Darknet's is 1.
            let e = exp(Double(2 * x))
            return Float((e - 1) / (e + 1))
        case .elu: return x >= 0 ? x : expf(x) - 1
        case .selu: return x >= 0 ? 1.0507 * x : 1.0507 * 1.6732 * (expf(x) - 1)
        case .loggy: return 2 / (1 + expf(-x)) - 1
        case .plse:
            if x < -4 { return 0.01 * (x + 4) }
            if x > 4 { return 0.01 * (x - 4) + 1 }
            return 0.125 * x + 0.5
        case .hardtan: return x < -1 ? -1 : (x > 1 ? 1 : x)
        case .lhtan:
            if x < 0 { return 0.001 * x }
            if x > 1 { return 0.001 * (x - 1) + 1 }
            return x
        case .stair:
            // Darknet: `int n = floor(x); if (n % 2 == 0) ...`. The parity is taken on the float
            // so that NaN, infinities and values beyond Int's range (which a network with huge
            // weights produces) do not trap; beyond 2^24 every float is even, as in C.
            let n = floorf(x)
            if !n.isFinite || n.truncatingRemainder(dividingBy: 2) == 0 { return floorf(x / 2) }
            return (x - n) + floorf(x / 2)
        case .relu6:
            // The clamp of AlexeyAB's GPU kernel and `relu6_activate`. (Its CPU `activate()`
            // has no RELU6 case and returns 0; that is a bug, not a semantics to copy.)
            return x < 0 ? 0 : (x > 6 ? 6 : x)
        case .gelu:
            return 0.5 * x * (1 + tanhf(0.797885 * x + 0.035677 * powf(x, 3)))
        case .swish:
            return x * (1 / (1 + expf(-x)))
        case .mish:
            // x * tanh(softplus(x)), softplus cut off at +-20, tanh as AlexeyAB writes it.
            let softplus: Float = x > Self.mishThreshold ? x : (x < -Self.mishThreshold ? expf(x) : logf(expf(x) + 1))
            return x * (2 / (1 + expf(-2 * softplus)) - 1)
        case .hardMish:
            if x > 0 { return x }
            if x > -2 { return x * x / 2 + x }
            return 0
        }
    }
}
