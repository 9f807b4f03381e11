import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP(S) GET streamed into a part file with `URLSession`: `Range`/`If-Range` to resume,
/// `If-None-Match`/`If-Modified-Since` to check for a newer file, and a watchdog on the calling
/// thread for the idle and whole-transfer time-outs and cancellation (so no wait is unbounded,
/// whatever the URL loading system does).
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let request: TransferRequest
    private let options: DownloadOptions
    private let callbacks: TransferCallbacks
    private let finished = DispatchSemaphore(value: 0)

    // Guarded by `lock`: written by the session's delegate queue, read by the waiting thread.
    private let lock = NSLock()
    private var output: FileHandle?
    private var bytesOnDisk: Int64 = 0
    private var expectedTotal: Int64?
    private var validators = TransferValidators()
    private var notModified = false
    private var failure: ModelSourceError?
    private var lastActivity = DispatchTime.now()
    private var done = false
    private var abandoned = false

    init(request: TransferRequest, options: DownloadOptions, callbacks: TransferCallbacks) {
        self.request = request
        self.options = options
        self.callbacks = callbacks
    }

    func run() throws(ModelSourceError) -> TransferOutcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.timeoutIntervalForRequest = options.idleTimeout + 5  // the watchdog below fires first
        configuration.timeoutIntervalForResource = (options.transferTimeout ?? 7 * 24 * 3600) + 5
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: urlRequest())
        let start = DispatchTime.now()
        lock.withLock { lastActivity = start }
        task.resume()
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if let reason = watchdog(start: start) {
                abandon(task)
                throw ModelSourceError(url: request.url, reason: reason)
            }
        }
        return try outcome()
    }

    private func urlRequest() -> URLRequest {
        var result = URLRequest(url: request.url)
        result.httpMethod = "GET"
        result.setValue("identity", forHTTPHeaderField: "Accept-Encoding")  // byte counts and ranges mean file bytes
        if request.resumeOffset > 0 {
            result.setValue("bytes=\(request.resumeOffset)-", forHTTPHeaderField: "Range")
            if let validator = request.resumeValidator { result.setValue(validator, forHTTPHeaderField: "If-Range") }
        }
        if let etag = request.ifNoneMatch { result.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = request.ifModifiedSince { result.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        return result
    }

    /// Why the waiting thread should give up now, if it should.
    private func watchdog(start: DispatchTime) -> ModelSourceError.Reason? {
        if options.cancellation?.isCancelled == true { return .cancelled }
        let last = lock.withLock { lastActivity }.uptimeNanoseconds
        let now = DispatchTime.now().uptimeNanoseconds
        let idle = Double(now > last ? now - last : 0) / 1e9
        if idle > options.idleTimeout { return .timedOut(seconds: options.idleTimeout) }
        if let limit = options.transferTimeout, Double(now - start.uptimeNanoseconds) / 1e9 > limit {
            return .transferTooLong(seconds: limit)
        }
        return nil
    }

    /// Stops the task and the part file's writes; waits a bounded time for the session to end.
    private func abandon(_ task: URLSessionDataTask) {
        lock.withLock {
            abandoned = true
            try? output?.close()
            output = nil
        }
        task.cancel()
        _ = finished.wait(timeout: .now() + .seconds(2))
    }

    private func outcome() throws(ModelSourceError) -> TransferOutcome {
        let result = lock.withLock { () -> Result<TransferOutcome, ModelSourceError> in
            try? output?.close()
            output = nil
            if notModified { return .success(.notModified) }
            if let expectedTotal, bytesOnDisk != expectedTotal {
                return .failure(ModelSourceError(url: request.url, reason: .truncated(expected: expectedTotal, received: bytesOnDisk)))
            }
            if let failure { return .failure(failure) }
            return .success(.complete(bytes: bytesOnDisk, validators: validators))
        }
        return try result.get()
    }

    // MARK: URLSessionDataDelegate (on the session's serial queue)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let disposition = lock.withLock { () -> URLSession.ResponseDisposition in
            lastActivity = .now()
            guard !abandoned, let http = response as? HTTPURLResponse else {
                failure = ModelSourceError(url: request.url, reason: .network("not an HTTP response"))
                return .cancel
            }
            switch http.statusCode {
            case 304 where request.ifNoneMatch != nil || request.ifModifiedSince != nil:
                notModified = true
                return .cancel
            case 200, 206:
                return startWriting(http)
            default:
                failure = ModelSourceError(url: request.url, reason: .httpStatus(http.statusCode))
                return .cancel
            }
        }
        completionHandler(disposition)
    }

    /// Opens the part file at the offset the response continues from (0 for a whole file).
    private func startWriting(_ http: HTTPURLResponse) -> URLSession.ResponseDisposition {
        var offset: Int64 = 0
        if http.statusCode == 206 {
            guard let range = http.value(forHTTPHeaderField: "Content-Range"),
                  let start = Self.rangeStart(range), start == request.resumeOffset else {
                failure = ModelSourceError(url: request.url, reason: .network(
                    "206 with Content-Range '\(http.value(forHTTPHeaderField: "Content-Range") ?? "")', asked from byte \(request.resumeOffset)"))
                return .cancel
            }
            offset = start
        }
        validators = TransferValidators(etag: http.value(forHTTPHeaderField: "ETag"),
                                        lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
        expectedTotal = http.expectedContentLength >= 0 ? offset + http.expectedContentLength : nil
        let path = request.partFile.path
        if offset == 0 { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            failure = ModelSourceError(url: request.partFile, reason: .cache("cannot be written"))
            return .cancel
        }
        do {
            try handle.truncate(atOffset: UInt64(offset))
            try handle.seekToEnd()
        } catch {
            failure = ModelSourceError(url: request.partFile, reason: .cache("cannot be truncated: \(error)"))
            return .cancel
        }
        output = handle
        bytesOnDisk = offset
        callbacks.started(validators, offset > 0)
        callbacks.progress(offset, expectedTotal)
        return .allow
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            lastActivity = .now()
            guard let output, failure == nil else { return }
            do {
                try output.write(contentsOf: data)
                bytesOnDisk += Int64(data.count)
            } catch {
                failure = ModelSourceError(url: request.partFile, reason: .cache("write failed: \(error)"))
                dataTask.cancel()
                return
            }
            callbacks.progress(bytesOnDisk, expectedTotal)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock {
            if let error, failure == nil, !notModified {
                failure = ModelSourceError(url: request.url, reason: .network(error.localizedDescription))
            }
            done = true
        }
        finished.signal()
    }

    /// The first byte of `bytes START-END/TOTAL`.
    static func rangeStart(_ header: String) -> Int64? {
        let parts = header.split(separator: " ")
        guard parts.count == 2, parts[0].lowercased() == "bytes", let dash = parts[1].firstIndex(of: "-") else { return nil }
        return Int64(parts[1][..<dash])
    }
}
