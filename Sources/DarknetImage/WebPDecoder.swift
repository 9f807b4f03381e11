import CWebP
import Darknet

/// WebP (lossy and lossless) through libwebp, as OpenCV's `imread(IMREAD_COLOR)` reads it:
/// libwebp's own RGB output, alpha dropped without compositing. Animated WebP is refused, as
/// `imread` refuses it.
enum WebPDecoder {
    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .unreadable(path: path, reason: "libwebp's decoder does not match the headers it was built with")
        }
        let featureStatus = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
        guard featureStatus == VP8_STATUS_OK else {
            throw .corrupt(path: path, reason: "WebP header: \(describe(featureStatus))")
        }
        let width = Int(config.input.width), height = Int(config.input.height)
        if config.input.has_animation != 0 {
            throw .unsupportedVariant(path: path, reason: "WebP: an animation (\(width)x\(height)); only still images are read")
        }
        try limits.check(width: width, height: height, path: path)

        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let status = rgb.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                config.output.colorspace = MODE_RGB
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = out.baseAddress
                config.output.u.RGBA.stride = Int32(width * 3)
                config.output.u.RGBA.size = out.count
                defer { WebPFreeDecBuffer(&config.output) }
                return WebPDecode(input.baseAddress, input.count, &config)
            }
        }
        guard status == VP8_STATUS_OK else {
            throw .corrupt(path: path, reason: "WebP: \(describe(status))")
        }
        return try PlanarImage.decoded(rgb: rgb, width: width, height: height, path: path)
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: "the data ends early (truncated file)"
        case VP8_STATUS_BITSTREAM_ERROR: "damaged bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "a feature libwebp does not support"
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        default: "libwebp status \(status.rawValue)"
        }
    }
}
