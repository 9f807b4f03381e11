import Foundation

/// One HTTP request from its headers to the end of its response: what arrived, the body so far,
/// and the response a worker made. Owned by libmicrohttpd's per-request pointer (retained when
/// the request starts, released when libmicrohttpd reports it complete).
final class HTTPExchange: @unchecked Sendable {
    /// libmicrohttpd's connection (valid until the request completes).
    let connection: OpaquePointer
    let method: String
    let path: String
    let route: HTTPRoute
    /// The client's address.
    let client: String
    let contentType: String?
    /// `Content-Length`, when the client sent one.
    let contentLength: Int?
    /// Whether a body follows the headers (a `Content-Length` above 0, or a chunked body).
    let hasBody: Bool
    /// When the headers were complete.
    let arrived = ContinuousClock.now
    /// The body as it arrives (on libmicrohttpd's thread only).
    var body: [UInt8] = []
    /// Body bytes received (on libmicrohttpd's thread only).
    var received = 0
    /// Whether a job for this request was queued (it is suspended until the job resumes it).
    var submitted = false

    private let lock = NSLock()
    private var ready: HTTPResponse?
    private var outcome = Outcome()

    /// What the log line and the metrics say about the exchange.
    struct Outcome {
        var status = 0
        var bytesOut = 0
        var inferenceSeconds: Double?
        var predictions: Int?
        var note: String?
        var errorReason: String?
    }

    init(connection: OpaquePointer, method: String, path: String, client: String, contentType: String?, contentLength: Int?,
         chunked: Bool) {
        self.connection = connection
        self.method = method
        self.path = path
        self.client = client
        self.contentType = contentType
        self.contentLength = contentLength
        hasBody = (contentLength ?? 0) > 0 || chunked
        route = HTTPRoute(method: method, path: path)
    }

    /// Sets the response to send (from a worker or libmicrohttpd's thread) and what to log.
    func respond(_ response: HTTPResponse, inferenceSeconds: Double? = nil, predictions: Int? = nil,
                 error: (any HTTPStatusError)? = nil) {
        lock.withLock {
            ready = response
            outcome.status = response.status
            outcome.bytesOut = response.body.count
            outcome.inferenceSeconds = inferenceSeconds
            outcome.predictions = predictions
            outcome.note = error.map { String(describing: $0) }
            outcome.errorReason = error?.reason
        }
    }

    /// The response set by `respond`, once (nil if none yet).
    func takeResponse() -> HTTPResponse? {
        lock.withLock {
            defer { ready = nil }
            return ready
        }
    }

    /// Notes why the exchange ended without its response (the log line's note).
    func abandon(note: String, reason: String) {
        lock.withLock {
            outcome.note = note
            outcome.errorReason = reason
        }
    }

    var result: Outcome { lock.withLock { outcome } }
}
