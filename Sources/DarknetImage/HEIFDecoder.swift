import CHEIF
import Darknet

/// HEIC (a phone camera's photos) and AVIF stills through libheif: the primary image, turned,
/// mirrored and cropped as its transformations say (as a phone shows it), converted by libheif
/// to 8-bit RGB (deeper samples reduced to 8 bits), alpha dropped without compositing.
///
/// OpenCV's `imread` in Debian's Darknet reads neither format, so there are no Darknet pixels to
/// match: the reference is libheif's own (`heif-convert`), checked in the tests. Decoding is
/// strict: damaged data is an error, not a picture with gaps. AV1 is decoded by libaom rather
/// than libheif's default dav1d, which writes to stderr and leaks memory on damaged data
/// (FuzzImage found both); AV1 decoders are bit-exact, so the pixels are the same. libde265
/// (HEVC) may still write a line such as "SPS error" to stderr for a damaged HEIC; the result is
/// an `ImageFileError` all the same.
enum HEIFDecoder {
    /// libheif's plugins, registered once per process (`heif_init` is reference counted).
    private static let initialized: Bool = heif_init(nil).code == heif_error_Ok

    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        guard initialized else { throw .unreadable(path: path, reason: "libheif could not initialise its decoders") }
        guard let context = heif_context_alloc() else {
            throw .unreadable(path: path, reason: "out of memory for a HEIF context")
        }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(DecodeLimits.maxDimension))
        // The context reads the bytes in place; it is freed before they go.
        let result = bytes.withUnsafeBytes { raw -> Result<PlanarImage, ImageFileError> in
            do throws(ImageFileError) {
                return .success(try decodePrimary(context, raw, path: path, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func decodePrimary(_ context: OpaquePointer, _ raw: UnsafeRawBufferPointer, path: String,
                                      limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        try check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil), path: path)
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), path: path)
        guard let handle else { throw .corrupt(path: path, reason: "HEIF: no primary image") }
        defer { heif_image_handle_release(handle) }
        try limits.check(width: Int(heif_image_handle_get_width(handle)),
                         height: Int(heif_image_handle_get_height(handle)), path: path)
        return try decodeRGB(handle, path: path, limits: limits)
    }

    /// libheif's name for its libaom decoder plugin, asked for every image: libheif uses it for
    /// AV1 and its default decoder for other codecs (libde265 for HEVC).
    private static let av1Decoder = "aom"

    private static func decodeRGB(_ handle: OpaquePointer, path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        guard let options = heif_decoding_options_alloc() else {
            throw .unreadable(path: path, reason: "out of memory for HEIF decoding options")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        options.pointee.strict_decoding = 1
        var decoded: OpaquePointer?
        var status = Self.av1Decoder.withCString { name in
            options.pointee.decoder_id = name  // libheif 1.15 falls back to its default for other codecs
            return heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options)
        }
        if status.code == heif_error_Plugin_loading_error {
            // Later libheif (Debian 13's) refuses a decoder that cannot decode the image (HEVC),
            // and has no libaom one without its plugin package: its default decoder, then.
            options.pointee.decoder_id = nil
            status = heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options)
        }
        try check(status, path: path)
        guard let decoded else { throw .corrupt(path: path, reason: "HEIF: libheif returned no image") }
        defer { heif_image_release(decoded) }
        let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        try limits.check(width: width, height: height, path: path)
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
              Int(stride) >= 3 * width else {
            throw .corrupt(path: path, reason: "HEIF: libheif returned no 8-bit RGB plane")
        }
        var rgb = [UInt8](repeating: 0, count: 3 * width * height)
        rgb.withUnsafeMutableBytes { out in
            for y in 0..<height {
                (out.baseAddress! + 3 * width * y).copyMemory(from: plane + Int(stride) * y, byteCount: 3 * width)
            }
        }
        return try PlanarImage.decoded(rgb: rgb, width: width, height: height, path: path)
    }

    /// Throws the `ImageFileError` for a libheif error (nothing for success).
    private static func check(_ error: heif_error, path: String) throws(ImageFileError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            throw .unsupportedVariant(path: path, reason: "HEIF: \(message)")
        case heif_error_Memory_allocation_error:
            throw .unreadable(path: path, reason: "out of memory decoding HEIF: \(message)")
        default:
            throw .corrupt(path: path, reason: "HEIF: \(message)")
        }
    }
}
