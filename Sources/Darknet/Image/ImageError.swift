/// Why an image could not be read, built or written.
public enum ImageError: Error, Equatable, Sendable {
    /// A dimension was zero or negative, or their product overflows.
    case invalidDimensions(width: Int, height: Int, channels: Int)
    /// The pixel buffer does not hold `channels * height * width` values.
    case pixelCountMismatch(expected: Int, actual: Int)
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The bytes are not a format this library decodes (JPEG, PNG, BMP, TIFF, WebP, Netpbm,
    /// HEIF).
    case unsupportedFormat(path: String)
    /// The file is a known format but its data is damaged or truncated.
    case corrupt(path: String, reason: String)
    /// The file is well-formed in a known format, but uses a variant of it that is not decoded
    /// (as OpenCV's `imread`, which Darknet reads images with, does not): an animated WebP,
    /// a JPEG-compressed BMP, floating-point TIFF samples, and the like.
    case unsupportedVariant(path: String, reason: String)
    /// The header claims more pixels than the configured limit; refused before allocating.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// The image could not be encoded or written.
    case writeFailed(path: String, reason: String)
}
