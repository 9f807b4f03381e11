/// Why a `PixelBuffer` could not be built, cropped or read.
public enum PixelBufferError: DarknetError, Equatable, Sendable {
    /// Width or height is not positive, or a size computation overflows.
    case invalidDimensions(width: Int, height: Int)
    /// The format needs another number of planes than were given.
    case planeCountMismatch(format: PixelFormat, expected: Int, actual: Int)
    /// A row of plane `plane` is shorter than its pixels need.
    case rowTooShort(plane: Int, bytesPerRow: Int, needed: Int)
    /// Plane `plane` holds fewer bytes than its rows need.
    case planeTooSmall(plane: Int, bytes: Int, needed: Int)
    /// A crop that is empty or reaches outside the buffer.
    case regionOutOfBounds(region: PixelRegion, width: Int, height: Int)
    /// The format cannot be written from a `PlanarImage` (YUV layouts, `.gray` from colour, or a
    /// channel count other than 1 and 3), or a network input has a channel count other than 1
    /// and 3.
    case unsupportedConversion(format: PixelFormat, channels: Int)
    /// A YUV crop starting on an odd column or row cannot be turned (`PixelBuffer.turned`).
    case unalignedYUVCrop(x: Int, y: Int)
    /// Packed 4:2:2 frames (YUYV, UYVY) cannot be turned in their own format: turned a
    /// quarter, a pair of pixels sharing chroma would lie in one column.
    case unsupportedTurn(format: PixelFormat)

    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height):
            "pixel buffer of \(width)x\(height): width and height must be positive"
        case .planeCountMismatch(let format, let expected, let actual):
            "\(format) needs \(expected) plane(s), \(actual) given"
        case .rowTooShort(let plane, let bytesPerRow, let needed):
            "plane \(plane): \(bytesPerRow) bytes per row, its pixels need at least \(needed)"
        case .planeTooSmall(let plane, let bytes, let needed):
            "plane \(plane): \(bytes) bytes, its rows need at least \(needed)"
        case .regionOutOfBounds(let region, let width, let height):
            "region \(region) is empty or outside the \(width)x\(height) buffer"
        case .unsupportedConversion(let format, let channels):
            "cannot convert between \(format) and a \(channels)-channel image"
        case .unalignedYUVCrop(let x, let y):
            "a YUV crop starting at (\(x), \(y)) cannot be turned: its chroma samples straddle the turned picture's (crop at even coordinates)"
        case .unsupportedTurn(let format):
            "a \(format) frame cannot be turned in its own format (its pixel pairs share chroma); convert it first"
        }
    }
}
