/// Which Darknet a cfg was written for. The two differ in one number that matters for real
/// weights: batch norm at inference divides by `sqrt(variance) + 1e-6` in the original
/// (pjreddie) Darknet and by `sqrt(variance + 1e-5)` in AlexeyAB's fork. With a variance of
/// 1e-4 the two scales differ by 5%.
public enum DarknetDialect: Sendable, Equatable {
    /// pjreddie's Darknet (YOLOv2, YOLOv3): `x̂ = (x - mean) / (sqrt(var) + 0.000001)`.
    case original
    /// AlexeyAB's fork (YOLOv4, YOLOv7): `x̂ = (x - mean) / sqrt(var + 0.00001)`.
    case alexeyAB
}

extension NetworkSpec {
    /// `.alexeyAB` when the cfg uses anything only AlexeyAB's fork runs (its activations,
    /// per-axis strides, dilation, route groups, several shortcut sources, `[scale_channels]`,
    /// `[sam]`, the `[yolo]` extensions): such a network was trained there. `.original`
    /// otherwise (a YOLOv3 cfg runs in both; its weights usually come from the original).
    public var dialect: DarknetDialect {
        layers.contains { $0.kind.layer.needsAlexeyAB } ? .alexeyAB : .original
    }
}

extension Activation {
    /// Activations the original Darknet does not know.
    var isAlexeyABOnly: Bool {
        switch self {
        case .relu6, .gelu, .swish, .mish, .hardMish, .revleaky: true
        default: false
        }
    }
}
