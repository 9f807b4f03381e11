import Foundation

/// Darknet's element-wise activation functions, by their cfg names.
public enum Activation: String, Sendable, CaseIterable {
    case logistic, loggy, relu, elu, selu, relie, plse, hardtan, lhtan, linear, ramp, leaky, tanh, stair
}

extension Activation {
    /// The activation of one value, exactly as Darknet's `activate` defines it.
    @inlinable
    public func apply(_ x: Float) -> Float {
        switch self {
        case .linear: return x
        case .leaky: return x > 0 ? x : 0.1 * x
        case .logistic: return 1 / (1 + expf(-x))
        case .relu: return x > 0 ? x : 0
        case .relie: return x > 0 ? x : 0.01 * x
        case .ramp: return (x > 0 ? x : 0) + 0.1 * x
        case .tanh: return (expf(2 * x) - 1) / (expf(2 * x) + 1)
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
        }
    }
}
