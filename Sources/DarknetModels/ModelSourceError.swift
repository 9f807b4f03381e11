import Darknet
import Foundation

/// Why a hosted model could not be downloaded, checked, updated or installed. Always names
/// the URL concerned (a `file://` URL for problems inside the cache directory).
public struct ModelSourceError: DarknetError, Sendable {
    /// The URL the failure concerns.
    public let url: URL
    /// What went wrong.
    public let reason: Reason

    /// An error about `url`.
    public init(url: URL, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    /// What went wrong with the URL.
    public enum Reason: Sendable, Equatable {
        /// The connection failed or broke (refused, reset, cut half-way); the text is the system's.
        case network(String)
        /// Nothing arrived for `seconds` (connecting, waiting for headers, or between data).
        case timedOut(seconds: Double)
        /// The whole transfer took longer than the configured limit.
        case transferTooLong(seconds: Double)
        /// The server answered with a status other than 200, 206 or 304.
        case httpStatus(Int)
        /// The server announced `expected` bytes and sent `received`.
        case truncated(expected: Int64, received: Int64)
        /// The file's SHA-256 is not the one the model description gives.
        case checksumMismatch(expected: String, actual: String)
        /// The files arrived but do not make a model (cfg error, weights that do not fit, names).
        case doesNotLoad(String)
        /// Only `http`, `https` and `file` URLs are supported.
        case unsupportedScheme(String)
        /// The caller cancelled the download.
        case cancelled
        /// A file in the cache could not be written, moved or read.
        case cache(String)
        /// Neither a cached nor a bundled model exists.
        case noModelAvailable
    }

    /// The URL (or, for a file, its path) and the reason, in one line.
    public var description: String {
        let text: String
        switch reason {
        case .network(let message): text = "network error: \(message)"
        case .timedOut(let seconds): text = "timed out: nothing received for \(Self.format(seconds)) s"
        case .transferTooLong(let seconds): text = "timed out: transfer took longer than \(Self.format(seconds)) s"
        case .httpStatus(let status): text = "HTTP status \(status), expected 200, 206 or 304"
        case .truncated(let expected, let received): text = "transfer cut: \(received) of \(expected) bytes received"
        case .checksumMismatch(let expected, let actual): text = "SHA-256 is \(actual), expected \(expected)"
        case .doesNotLoad(let message): text = "downloaded file does not load: \(message)"
        case .unsupportedScheme(let scheme): text = "unsupported URL scheme '\(scheme)' (http, https or file)"
        case .cancelled: text = "download cancelled"
        case .cache(let message): text = "cache: \(message)"
        case .noModelAvailable: text = "no cached or bundled model"
        }
        return "\(url.isFileURL ? url.path : url.absoluteString): \(text)"
    }

    private static func format(_ seconds: Double) -> String { String(format: "%g", seconds) }
}
