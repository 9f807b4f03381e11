import Darknet
import Foundation

/// Why an image file could not be read, decoded or written. Every case names the file
/// (`<data>` for bytes in memory).
public enum ImageFileError: DarknetError, Equatable, Sendable {
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
    /// The decoded pixels do not make an image (`ImageError`, from the core).
    case invalidImage(path: String, ImageError)

    /// One line naming the file and what is wrong with it.
    public var description: String {
        switch self {
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
        case .invalidImage(let path, let error):
            "\(path): \(error)"
        }
    }

}
