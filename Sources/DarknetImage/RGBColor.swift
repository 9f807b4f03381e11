/// A colour for drawing on images, components in `[0, 1]`.
public struct RGBColor: Sendable, Equatable {
    public var red: Float
    public var green: Float
    public var blue: Float

    public init(red: Float, green: Float, blue: Float) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 1, green: 1, blue: 1)

    /// Rec. 601 luma, used for 1-channel images and to pick a readable text colour.
    public var luminance: Float { 0.299 * red + 0.587 * green + 0.114 * blue }

    /// Stops of the class colour ramp: magenta, red, yellow, green, cyan, blue.
    private static let ramp: [RGBColor] = [
        RGBColor(red: 1, green: 0, blue: 1),
        RGBColor(red: 1, green: 0, blue: 0),
        RGBColor(red: 1, green: 1, blue: 0),
        RGBColor(red: 0, green: 1, blue: 0),
        RGBColor(red: 0, green: 1, blue: 1),
        RGBColor(red: 0, green: 0, blue: 1),
    ]

    /// The colour Darknet's `draw_detections` gives class `classIndex` of `classCount`.
    ///
    /// Classes are scattered over the ramp by `offset = classIndex * 123457 % classCount`,
    /// then the ramp is sampled at `offset / classCount` and interpolated linearly between
    /// its two nearest stops, so neighbouring class indices get distinct colours.
    public static func forClass(_ classIndex: Int, of classCount: Int) -> RGBColor {
        let count = max(1, classCount)
        let index = ((classIndex % count) + count) % count
        let offset = index * 123_457 % count
        let position = Float(offset) / Float(count) * Float(ramp.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Int(position.rounded(.up))
        let t = position - Float(lower)
        let a = ramp[lower], b = ramp[upper]
        return RGBColor(red: (1 - t) * a.red + t * b.red,
                        green: (1 - t) * a.green + t * b.green,
                        blue: (1 - t) * a.blue + t * b.blue)
    }
}
