/// What a decoder shim returns (`sd_jpeg_decode`, `sd_png_decode`, `sd_tiff_decode`): the
/// same numbers in every shim's `SD_*` enum.
enum DecoderStatus: Int32 {
    case ok = 0
    /// The library raised an error: damaged or truncated data.
    case failed = 1
    /// The header's size is over the caller's limits; nothing was allocated.
    case tooLarge = 2
    case outOfMemory = 3
    /// Well-formed, but not a variant the library reads (TIFF).
    case unsupported = 4

    /// Returns when a decode of the file at `path` succeeded, else throws what `status` means.
    /// - Parameters:
    ///   - format: the format's name, for the out-of-memory message (`JPEG`).
    ///   - message: the library's own words on the failure.
    static func check(_ status: Int32, path: String, format: String, width: Int, height: Int,
                      limits: DecodeLimits, message: @autoclosure () -> String) throws(ImageFileError) {
        switch DecoderStatus(rawValue: status) {
        case .ok:
            return
        case .tooLarge:
            throw .tooLarge(path: path, width: width, height: height, limit: limits.maxPixels)
        case .outOfMemory:
            throw .unreadable(path: path, reason: "out of memory decoding \(width)x\(height) \(format)")
        case .unsupported:
            throw .unsupportedVariant(path: path, reason: message())
        case .failed, nil:
            throw .corrupt(path: path, reason: message())
        }
    }
}
