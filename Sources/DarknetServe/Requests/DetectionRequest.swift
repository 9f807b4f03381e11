import Foundation

/// A DeepStack / CodeProject.AI detection request: the `multipart/form-data` form that
/// `POST /v1/vision/detection` (and `/v1/vision/custom/<model>`) takes.
///
/// Fields: `image` (a file, required), `min_confidence` (0 to 1; the server's default when
/// absent or empty), `api_key` (compared with the server's key, if it has one). Other fields
/// are ignored, as DeepStack ignores them.
public struct DetectionRequest: Sendable, Equatable {
    /// The image file's bytes (any format `DarknetImage` reads).
    public let image: ArraySlice<UInt8>
    /// The file name the client gave the image, if any (for messages).
    public let filename: String?
    /// `min_confidence`, if the form has one.
    public let minimumConfidence: Float?
    /// `api_key`, if the form has one.
    public let apiKey: String?

    /// Reads the form in `body`, sent with the `Content-Type` header `contentType`.
    /// - Throws: `FormError`: not multipart, a malformed body (with its byte offset), no
    ///   `image` file field, an empty image, a `min_confidence` that is not a number in 0...1.
    public init(contentType: String?, body: [UInt8]) throws(FormError) {
        guard let contentType else { throw .notMultipart(contentType: nil) }
        let mediaType = try MediaType(parsing: contentType)
        guard mediaType.type == "multipart/form-data" else { throw .notMultipart(contentType: contentType) }
        guard let boundary = mediaType.parameter("boundary") else {
            throw .malformedContentType(contentType, reason: "multipart/form-data without a boundary parameter")
        }
        let form = try MultipartForm(body: body, boundary: boundary)
        guard let image = form.part(named: "image") else {
            throw .missingField("image", fields: form.parts.map(\.name))
        }
        guard !image.contents.isEmpty else {
            throw .invalidField("image", value: image.filename ?? "", expected: "an image file (the file is empty)")
        }
        self.image = body[image.contents]
        filename = image.filename
        minimumConfidence = try form.part(named: "min_confidence").flatMap { part throws(FormError) in
            try Self.confidence(String(decoding: body[part.contents], as: UTF8.self))
        }
        apiKey = form.part(named: "api_key").map { String(decoding: body[$0.contents], as: UTF8.self) }
    }

    /// A `min_confidence` value: nil when empty, else a number in 0...1.
    static func confidence(_ text: String) throws(FormError) -> Float? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        guard let value = Float(trimmed), value.isFinite, (0...1).contains(value) else {
            throw .invalidField("min_confidence", value: String(trimmed.prefix(40)), expected: "a number from 0 to 1")
        }
        return value
    }
}
