/// A planar (CHW) float32 image, the form Darknet works on.
///
/// Layout: `pixels[c * height * width + y * width + x]`; colour images are RGB, values in
/// `[0, 1]` (`byte / 255`). The core module knows nothing about file formats: decoding and
/// encoding live in `DarknetImage`.
///
/// Formerly `Image` (a deprecated alias remains); renamed so that an app importing SwiftUI, whose
/// `Image` is a view, can name both.
public struct PlanarImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Number of planes (3 for RGB).
    public let channels: Int
    /// `channels * height * width` values, plane after plane.
    public var pixels: [Float]

    /// Wraps existing planar pixels.
    /// - Throws: `ImageError.invalidDimensions` if a dimension is not positive, or
    ///   `ImageError.pixelCountMismatch` if `pixels.count != channels * height * width`.
    public init(width: Int, height: Int, channels: Int, pixels: [Float]) throws(ImageError) {
        guard width > 0, height > 0, channels > 0 else {
            throw .invalidDimensions(width: width, height: height, channels: channels)
        }
        let (area, overflowA) = width.multipliedReportingOverflow(by: height)
        let (count, overflowB) = area.multipliedReportingOverflow(by: channels)
        guard !overflowA, !overflowB, count == pixels.count else {
            throw .pixelCountMismatch(expected: overflowA || overflowB ? Int.max : count, actual: pixels.count)
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// An image with every value set to `value`.
    /// - Throws: `ImageError.invalidDimensions` if a dimension is not positive or their
    ///   product overflows.
    public init(width: Int, height: Int, channels: Int, filledWith value: Float) throws(ImageError) {
        let (area, overflowA) = width.multipliedReportingOverflow(by: height)
        let (count, overflowB) = area.multipliedReportingOverflow(by: channels)
        guard width > 0, height > 0, channels > 0, !overflowA, !overflowB else {
            throw .invalidDimensions(width: width, height: height, channels: channels)
        }
        try self.init(width: width, height: height, channels: channels,
                      pixels: [Float](repeating: value, count: count))
    }

    /// Wraps pixels whose count the caller has already checked; for internal producers
    /// (resize, letterbox, decoders) that build the buffer themselves.
    package init(validatedWidth width: Int, height: Int, channels: Int, pixels: [Float]) {
        precondition(width > 0 && height > 0 && channels > 0 && pixels.count == width * height * channels,
                     "PlanarImage: \(width)x\(height)x\(channels) does not match \(pixels.count) values")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The value at channel `c`, row `y`, column `x`. Indices must be in range.
    @inlinable
    public subscript(c: Int, y: Int, x: Int) -> Float {
        get { pixels[(c * height + y) * width + x] }
        set { pixels[(c * height + y) * width + x] = newValue }
    }
}

extension PlanarImage: CustomStringConvertible {
    /// Its size, as `PlanarImage(768 x 576 x 3)`: width x height x channels, not the pixels.
    public var description: String { "PlanarImage(\(width) x \(height) x \(channels))" }
}

/// The former name of `PlanarImage`. While this alias exists, a file that imports both SwiftUI and
/// Darknet must write `SwiftUI.Image` for the view.
@available(*, deprecated, renamed: "PlanarImage")
public typealias Image = PlanarImage
