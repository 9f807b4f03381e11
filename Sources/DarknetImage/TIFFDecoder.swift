import CTIFF
import Darknet

/// TIFF through libtiff, as OpenCV's `imread(IMREAD_COLOR)` reads it: the first image, through
/// libtiff's RGBA interface (see `sd_tiff_decode`), turned upright by its Orientation tag (the
/// same eight values as EXIF's). What that interface does not read (e.g. floating-point
/// samples) is `ImageFileError.unsupportedVariant`.
enum TIFFDecoder {
    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        var result = sd_tiff_result()
        // libtiff's largest single allocation: a strip or tile, at most 8 bytes a pixel.
        let (scaled, overflow) = Int(limits.cMaxPixels).multipliedReportingOverflow(by: 8)
        let maxAllocation = Int64(overflow ? Int.max : scaled + (1 << 20))
        let status = bytes.withUnsafeBufferPointer { buffer in
            sd_tiff_decode(buffer.baseAddress, buffer.count, limits.cMaxPixels, limits.cMaxDimension, maxAllocation, &result)
        }
        defer { sd_tiff_free(result.pixels) }
        let width = Int(result.width), height = Int(result.height)
        try DecoderStatus.check(status, path: path, format: "TIFF", width: width, height: height, limits: limits,
                                message: "TIFF: \(CMessage.string(from: result.message))")
        guard let pixels = result.pixels else {
            throw .corrupt(path: path, reason: "TIFF: libtiff returned no pixels")
        }
        return try PlanarImage.decoded(pixels: pixels, width: width, height: height,
                                       orientation: EXIFOrientation(rawValue: Int(result.orientation)), path: path)
    }
}
