/// `[avgpool]` / `[avg]`: global average pooling, `W x H x C` to `1 x 1 x C`.
public struct AvgpoolSpec: Sendable, Equatable {}

/// `[softmax]` / `[soft]`: softmax over the whole input, or over each of `groups` equal
/// consecutive slices of it.
public struct SoftmaxSpec: Sendable, Equatable {
    /// Number of independent slices (`groups`, default 1); must divide the input size.
    public var groups: Int
    /// Divides every input before the exponential (`temperature`, default 1).
    public var temperature: Float
}

/// `[connected]` / `[conn]`: fully connected layer over the flattened input.
public struct ConnectedSpec: Sendable, Equatable {
    /// Output values (`output`, default 1).
    public var outputs: Int
    /// Applied after the bias (`activation`, default `logistic` as in Darknet).
    public var activation: Activation
    /// Whether batch-norm parameters follow the weights in the weights file
    /// (`batch_normalize`); folded at load.
    public var batchNormalize: Bool
}

/// `[dropout]`: identity at inference (Darknet's layer shares its input's buffer).
public struct DropoutSpec: Sendable, Equatable {
    /// Training drop probability (`probability`, default 0.5); unused at inference.
    public var probability: Float
}

/// `[batchnorm]`: a stand-alone batch normalisation,
/// `(x - mean) / (sqrt(variance) + 1e-6) * scale` per channel (Darknet adds no bias).
public struct BatchnormSpec: Sendable, Equatable {}

/// `[cost]`: a training loss. At inference it passes its input through; the network's
/// output is the last layer that is not a cost layer, as in Darknet.
public struct CostSpec: Sendable, Equatable {}

/// `[crop]`: at inference, the centred `cropWidth x cropHeight` window of the input,
/// each value mapped to `2x - 1` (or kept with `noadjust=1`).
public struct CropSpec: Sendable, Equatable {
    /// Output width (`crop_width`, default 1).
    public var cropWidth: Int
    /// Output height (`crop_height`, default 1).
    public var cropHeight: Int
    /// Keep values as they are instead of `2x - 1` (`noadjust`, default 0).
    public var noAdjust: Bool
}
