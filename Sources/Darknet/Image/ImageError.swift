/// Why an image could not be built in memory: the core's own errors. Reading and writing image
/// files fails with DarknetImage's `ImageFileError` instead.
public enum ImageError: DarknetError, Equatable, Sendable {
    /// A dimension was zero or negative, or their product overflows.
    case invalidDimensions(width: Int, height: Int, channels: Int)
    /// The pixel buffer does not hold `channels * height * width` values.
    case pixelCountMismatch(expected: Int, actual: Int)
}
