import CPNG
import Darknet

/// PNG decoding through libpng, matching what Darknet sees through OpenCV's
/// `imread(IMREAD_COLOR)`.
///
/// Every colour type and bit depth is read as 8-bit RGB: 16-bit samples keep their high byte
/// (`png_set_strip_16`, i.e. `v >> 8`), alpha and `tRNS` are dropped without compositing,
/// palettes are expanded, 1/2/4-bit grey is scaled to 0...255 and replicated. An `eXIf`
/// orientation before the image data is applied. Samples become `Float(Double(v) / 255.0)`.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        let header = ImageHeader(png: bytes)
        try header.check(limits, path: path)

        var result = sd_png_result()
        let status = bytes.withUnsafeBufferPointer { buffer in
            sd_png_decode(buffer.baseAddress, buffer.count, limits.cMaxPixels, limits.cMaxDimension, &result)
        }
        defer { sd_png_free(result.pixels) }
        try DecoderStatus.check(status, path: path, format: "PNG", width: Int(result.width), height: Int(result.height),
                                limits: limits, message: Self.message(of: result))
        guard let pixels = result.pixels, result.width > 0, result.height > 0 else {
            throw .corrupt(path: path, reason: "libpng returned no pixels")
        }
        return try PlanarImage.decoded(pixels: pixels, width: Int(result.width), height: Int(result.height),
                                       orientation: header.orientation, path: path)
    }

    private static func message(of result: sd_png_result) -> String {
        let text = CMessage.string(from: result.message)
        return text.isEmpty ? "libpng could not decode the data" : text
    }
}
