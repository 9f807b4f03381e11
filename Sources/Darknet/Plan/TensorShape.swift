/// The shape of one activation tensor: planar CHW, batch 1.
public struct TensorShape: Sendable, Equatable, CustomStringConvertible {
    public var channels: Int
    public var height: Int
    public var width: Int

    public init(channels: Int, height: Int, width: Int) {
        self.channels = channels
        self.height = height
        self.width = width
    }

    /// Number of values, `channels * height * width`.
    public var count: Int { channels * height * width }
    /// Values in one plane, `height * width`.
    public var planeSize: Int { height * width }

    /// `W x H x C`, Darknet's order in its layer summary.
    public var description: String { "\(width) x \(height) x \(channels)" }
}
