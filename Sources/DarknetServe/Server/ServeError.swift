import Darknet
import DarknetImage

/// A request the server refused or could not answer, beyond a malformed form (`FormError`) or
/// tensor (`TensorError`): its HTTP status and a short reason for the metrics go with it.
public enum ServeError: DarknetError, Equatable, Sendable {
    /// The image field's bytes are not an image `DarknetImage` reads (`filename` as the client
    /// named it).
    case badImage(ImageFileError, filename: String?, bytes: Int)
    /// `capacity` requests already wait for a worker: try again shortly.
    case queueFull(capacity: Int)
    /// The server is shutting down and takes no new requests.
    case draining
    /// The request waited longer than the request timeout for a worker, so it was not run.
    case expiredInQueue(waited: Duration)
    /// `/v1/vision/custom/<name>` names no model the server has.
    case unknownModel(String, known: [String])
    /// The form's `api_key` is missing or differs from the server's.
    case unauthorized
    /// The body is longer than the server takes (`length` nil: it grew past it while arriving).
    case uploadTooLarge(length: Int?, limit: Int)
    /// No such path.
    case notFound(path: String)
    /// The path exists but not for this method.
    case methodNotAllowed(method: String, allowed: [String])
    /// Detection itself failed (a library error on a valid image).
    case inferenceFailed(String)

    public var description: String {
        switch self {
        case .badImage(let error, let filename, let bytes):
            "the 'image' file" + (filename.map { " '\($0)'" } ?? "") + " (\(bytes) bytes): "
                + Self.dropDataPath(error.description)
        case .queueFull(let capacity):
            "the server is busy: \(capacity) requests already wait for a worker; retry shortly"
        case .draining:
            "the server is shutting down"
        case .expiredInQueue(let waited):
            "the request waited \(Int(waited.seconds * 1000)) ms for a worker, longer than the request timeout"
        case .unknownModel(let name, let known):
            "no model called '\(name)'" + (known.isEmpty ? " (the server has no custom models)" : " (models: \(known.joined(separator: ", ")))")
        case .unauthorized:
            "incorrect api_key"
        case .uploadTooLarge(let length?, let limit):
            "the upload is \(length) bytes, more than the server's limit of \(limit)"
        case .uploadTooLarge(nil, let limit):
            "the upload is more than the server's limit of \(limit) bytes"
        case .notFound(let path):
            "no such endpoint: \(path)"
        case .methodNotAllowed(let method, let allowed):
            "\(method) is not allowed here; use \(allowed.joined(separator: " or "))"
        case .inferenceFailed(let message):
            "detection failed: \(message)"
        }
    }

    /// `<data>: reason` (an in-memory image's error) without the `<data>: `.
    private static func dropDataPath(_ text: String) -> String {
        let prefix = "<data>: "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}

/// An error's HTTP status and the reason label `/metrics` counts it under.
protocol HTTPStatusError: Error {
    var status: Int { get }
    var reason: String { get }
}

extension ServeError: HTTPStatusError {
    var status: Int {
        switch self {
        case .badImage: 400
        case .queueFull, .draining, .expiredInQueue: 503
        case .unknownModel, .notFound: 404
        case .unauthorized: 401
        case .uploadTooLarge: 413
        case .methodNotAllowed: 405
        case .inferenceFailed: 500
        }
    }

    var reason: String {
        switch self {
        case .badImage: "bad_image"
        case .queueFull: "queue_full"
        case .draining: "draining"
        case .expiredInQueue: "expired_in_queue"
        case .unknownModel: "unknown_model"
        case .unauthorized: "unauthorized"
        case .uploadTooLarge: "upload_too_large"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .inferenceFailed: "inference_failed"
        }
    }
}

extension FormError: HTTPStatusError {
    var status: Int {
        if case .notMultipart = self { return 415 }
        return 400
    }

    var reason: String {
        switch self {
        case .notMultipart: "not_multipart"
        case .missingField: "no_image_field"
        case .invalidField: "invalid_field"
        case .malformedContentType, .malformedBody, .tooManyParts: "malformed_form"
        }
    }
}

extension TensorError: HTTPStatusError {
    var status: Int { 400 }
    var reason: String {
        switch self {
        case .frameCount: "frame_count"
        case .headerNotJSON, .headerField: "bad_header"
        case .unsupportedType: "bad_dtype"
        case .unsupportedShape: "bad_shape"
        case .byteCount: "tensor_size"
        case .valueOutOfRange: "tensor_values"
        }
    }
}

extension ModelTransferError: HTTPStatusError {
    var status: Int {
        switch self {
        case .name, .noBytes, .bundle: 400
        case .noDirectory: 403
        case .load: 422
        case .save: 500
        case .busy: 503
        }
    }

    var reason: String {
        switch self {
        case .name: "bad_model_name"
        case .noBytes: "frame_count"
        case .noDirectory: "transfer_refused"
        case .bundle: "bad_model"
        case .load: "model_load"
        case .save: "model_save"
        case .busy: "queue_full"
        }
    }
}
