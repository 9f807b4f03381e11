import CPNG
import Darknet

/// PNG encoding through libpng's simplified write API.
enum PNGEncoder {
    static func encode(_ image: PlanarImage, path: String) throws(ImageFileError) -> [UInt8] {
        guard image.channels == 3 || image.channels == 1 else {
            throw .writeFailed(path: path, reason: "PNG needs 1 or 3 channels, the image has \(image.channels)")
        }
        guard image.width <= Int(UInt32.max), image.height <= Int(UInt32.max) else {
            throw .writeFailed(path: path, reason: "image too large for PNG")
        }
        let samples = PixelConversion.interleavedBytes(of: image)
        var result = sd_png_result()
        let status = samples.withUnsafeBufferPointer { buffer in
            sd_png_encode(buffer.baseAddress, UInt32(image.width), UInt32(image.height),
                          Int32(image.channels), &result)
        }
        defer { sd_png_free(result.encoded) }
        guard Int(status) == SD_PNG_OK, let encoded = result.encoded else {
            let text = CMessage.string(from: result.message)
            throw .writeFailed(path: path, reason: text.isEmpty ? "libpng could not encode the image" : text)
        }
        return Array(UnsafeBufferPointer(start: encoded, count: result.encoded_size))
    }
}
