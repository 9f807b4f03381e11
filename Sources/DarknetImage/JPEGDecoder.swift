import CJPEG
import Darknet

/// JPEG decoding through libjpeg-turbo, matching what Darknet sees through OpenCV's
/// `imread(IMREAD_COLOR)`.
///
/// libjpeg runs with its default decompression settings, as OpenCV leaves them
/// (`JDCT_ISLOW`, fancy upsampling on); 1- and 3-component images come out as `JCS_RGB`
/// (grey replicated), 4-component (CMYK/YCCK) ones as `JCS_CMYK` and are converted as OpenCV
/// does. The EXIF orientation from the first APP1 segment is applied. Samples become
/// `Float(Double(v) / 255.0)`, planar RGB: the values Darknet's `load_image_color` produces.
enum JPEGDecoder {
    /// The image as planar RGB, or with `grey` as one channel of libjpeg's own grey output
    /// (`JCS_GRAYSCALE`: the decoded luma, what OpenCV's `imread(IMREAD_GRAYSCALE)` returns);
    /// a CMYK image comes out in colour either way.
    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits, grey: Bool = false) throws(ImageFileError) -> PlanarImage {
        let header = ImageHeader(jpeg: bytes)
        try header.check(limits, path: path)

        var result = sd_jpeg_result()
        let status = bytes.withUnsafeBufferPointer { buffer in
            sd_jpeg_decode(buffer.baseAddress, UInt(buffer.count), limits.cMaxPixels, limits.cMaxDimension, grey ? 1 : 0, &result)
        }
        defer { sd_jpeg_free(result.pixels) }
        try DecoderStatus.check(status, path: path, format: "JPEG", width: Int(result.width), height: Int(result.height),
                                limits: limits, message: Self.message(of: result))
        // libjpeg pads a truncated file with grey and only warns. A file missing nothing but
        // its EOI marker still holds every pixel (Darknet reads it, and so do we); one whose
        // scan data ran out, or a progressive one that may be missing whole scans, is refused.
        if result.premature_end != 0 && (result.missing_data != 0 || result.multiple_scans != 0) {
            throw .corrupt(path: path, reason: "JPEG data ends before the image does (truncated file)")
        }
        guard let pixels = result.pixels, result.width > 0, result.height > 0,
              result.components == 3 || result.components == 4 || (grey && result.components == 1) else {
            throw .corrupt(path: path, reason: "libjpeg returned no usable pixels")
        }
        return try PlanarImage.decoded(pixels: pixels, width: Int(result.width), height: Int(result.height),
                                       components: Int(result.components), orientation: header.orientation, path: path)
    }

    private static func message(of result: sd_jpeg_result) -> String {
        let text = CMessage.string(from: result.message)
        return text.isEmpty ? "libjpeg could not decode the data" : text
    }
}
