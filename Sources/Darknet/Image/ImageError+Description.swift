extension ImageError: CustomStringConvertible {
    /// One line naming the file (`<data>` for bytes in memory) and what is wrong with it.
    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height, let channels):
            "invalid image dimensions \(width)x\(height) with \(channels) channels"
        case .pixelCountMismatch(let expected, let actual):
            "\(actual) pixel values given for an image of \(expected)"
        case .unreadable(let path, let reason):
            "\(path): \(reason)"
        case .unsupportedFormat(let path):
            "\(path): not a JPEG, PNG, BMP, TIFF, WebP, Netpbm or HEIF image"
        case .corrupt(let path, let reason):
            "\(path): damaged image data: \(reason)"
        case .unsupportedVariant(let path, let reason):
            "\(path): cannot decode \(reason)"
        case .tooLarge(let path, let width, let height, let limit):
            "\(path): \(width)x\(height) pixels, more than the limit of \(limit)"
        case .writeFailed(let path, let reason):
            "\(path): cannot write the image: \(reason)"
        }
    }
}
