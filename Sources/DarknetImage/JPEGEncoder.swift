import CJPEG
import Darknet

/// Baseline JPEG encoding through libjpeg-turbo (`jpeg_set_defaults`, then quality).
enum JPEGEncoder {
    static func encode(_ image: PlanarImage, quality: Int, path: String) throws(ImageFileError) -> [UInt8] {
        guard image.channels == 3 || image.channels == 1 else {
            throw .writeFailed(path: path, reason: "JPEG needs 1 or 3 channels, the image has \(image.channels)")
        }
        guard (1...100).contains(quality) else {
            throw .writeFailed(path: path, reason: "JPEG quality \(quality) is outside 1...100")
        }
        guard image.width <= 65_500, image.height <= 65_500 else {
            throw .writeFailed(path: path, reason: "JPEG sides are limited to 65500 pixels")
        }
        let samples = PixelConversion.interleavedBytes(of: image)
        var result = sd_jpeg_result()
        let status = samples.withUnsafeBufferPointer { buffer in
            sd_jpeg_encode(buffer.baseAddress, UInt32(image.width), UInt32(image.height),
                           Int32(image.channels), Int32(quality), &result)
        }
        defer { sd_jpeg_free(result.encoded) }
        guard Int(status) == SD_JPEG_OK, let encoded = result.encoded else {
            let text = CMessage.string(from: result.message)
            throw .writeFailed(path: path, reason: text.isEmpty ? "libjpeg could not encode the image" : text)
        }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(result.encoded_size)))
    }
}
