import Foundation

/// One GET of one file into a part file: what to ask and what to resume.
struct TransferRequest: Sendable {
    var url: URL
    /// Where the bytes go; appended to when resuming.
    var partFile: URL
    /// Bytes already in `partFile` to resume after (0: start over).
    var resumeOffset: Int64 = 0
    /// The ETag (or Last-Modified) the part file's bytes came from, sent as `If-Range` so a
    /// changed file is sent whole instead of spliced.
    var resumeValidator: String?
    /// Validators of the copy already installed, for a conditional request.
    var ifNoneMatch: String?
    var ifModifiedSince: String?
}

/// What the server said about a file.
struct TransferValidators: Sendable, Equatable, Codable {
    var etag: String?
    var lastModified: String?
    /// The value for `If-Range`: the ETag if strong, else Last-Modified.
    var rangeValidator: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }
}

/// How a transfer ended.
enum TransferOutcome: Sendable, Equatable {
    /// 304: the installed copy is current; the part file is untouched.
    case notModified
    /// The part file holds the whole file, `bytes` long.
    case complete(bytes: Int64, validators: TransferValidators)
}

/// Called while a transfer runs: once with the validators before the first byte is written
/// (so an interrupted download knows what its bytes belong to), then with bytes on disk and
/// the total.
struct TransferCallbacks: Sendable {
    var started: @Sendable (TransferValidators, _ resumed: Bool) -> Void = { _, _ in }
    var progress: @Sendable (_ bytes: Int64, _ total: Int64?) -> Void = { _, _ in }
}

enum Transfer {
    /// Runs `request` for its URL scheme, blocking until it ends.
    static func run(_ request: TransferRequest, options: DownloadOptions,
                    callbacks: TransferCallbacks) throws(ModelSourceError) -> TransferOutcome {
        switch request.url.scheme?.lowercased() {
        case "http", "https":
            return try HTTPTransfer(request: request, options: options, callbacks: callbacks).run()
        case "file":
            return try LocalTransfer.run(request, options: options, callbacks: callbacks)
        case let scheme:
            throw ModelSourceError(url: request.url, reason: .unsupportedScheme(scheme ?? ""))
        }
    }
}
