/// `[scale_channels]` (AlexeyAB): multiplies an earlier layer's output by the previous
/// layer's values, one per channel (squeeze-and-excitation) or, with `scale_wh=1`, one per
/// pixel.
public struct ScaleChannelsSpec: Sendable, Equatable {
    /// Absolute index of the scaled layer (`from`, relative resolved); its shape is the output's.
    public var from: Int
    /// `scale_wh=1`: the previous layer is one `H x W` plane that scales every channel.
    public var scaleWH: Bool
    /// Applied to the product (`activation`, default linear).
    public var activation: Activation

    public init(from: Int, scaleWH: Bool = false, activation: Activation = .linear) {
        self.from = from
        self.scaleWH = scaleWH
        self.activation = activation
    }
}

/// `[sam]` (AlexeyAB, spatial attention): the element-wise product of the previous layer's
/// output and an earlier layer's output of the same shape.
public struct SamSpec: Sendable, Equatable {
    /// Absolute index of the other factor (`from`, relative resolved).
    public var from: Int
    /// Applied to the product (`activation`, default linear).
    public var activation: Activation

    public init(from: Int, activation: Activation = .linear) {
        self.from = from
        self.activation = activation
    }
}

/// Non-maximum suppression as AlexeyAB's `[yolo] nms_kind` selects it.
public enum NMSKind: Sendable, Equatable {
    /// `do_nms_sort`: IoU against the threshold (Darknet's only kind; AlexeyAB's `default`).
    case `default`
    /// `greedynms`: AlexeyAB's `diounms_sort` with `box_diou` (IoU minus the normalised centre
    /// distance to the power 0.6; `beta_nms` is not used by this kind).
    case greedy
    /// `diounms`: `diounms_sort` with `box_diounms`, the distance term to the power `beta`.
    case diou(beta: Float)
}
