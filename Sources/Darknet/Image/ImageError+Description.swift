extension ImageError: CustomStringConvertible {
    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height, let channels):
            "invalid image dimensions \(width)x\(height) with \(channels) channels"
        case .pixelCountMismatch(let expected, let actual):
            "\(actual) pixel values given for an image of \(expected)"
        }
    }
}
