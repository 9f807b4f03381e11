/// How Darknet's `shortcut_cpu` lines up a `[shortcut]` whose `from` layer has another shape
/// than the previous layer (the ResNet cfgs: 64 channels added onto 256, or a 2x larger grid
/// added with a stride).
///
/// With `from` = `W1 x H1 x C1` and the previous layer (and the output) `W2 x H2 x C2`:
/// `stride = W1 / W2`, `sample = W2 / W1` (integer division, then at least 1); for every
/// channel `k < min(C1, C2)`, row `j < min(H1, H2)`, column `i < min(W1, W2)`, output value
/// `(k, j*sample, i*sample)` becomes `alpha * itself + beta * from(k, j*stride, i*stride)`;
/// every other output value is the previous layer's, unchanged (before the activation).
/// Darknet asserts `W1 / W2 == H1 / H2` and `W2 / W1 == H2 / H1`; other shapes are refused.
struct ShortcutGeometry: Equatable {
    let stride: Int
    let sample: Int
    /// The overlap: `min` of each dimension.
    let channels: Int
    let height: Int
    let width: Int

    init?(from: TensorShape, to: TensorShape) {
        let stride = from.width / to.width, sample = to.width / from.width
        guard stride == from.height / to.height, sample == to.height / from.height else { return nil }
        self.stride = max(stride, 1)
        self.sample = max(sample, 1)
        channels = min(from.channels, to.channels)
        height = min(from.height, to.height)
        width = min(from.width, to.width)
    }
}
