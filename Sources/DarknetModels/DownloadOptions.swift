import Foundation

/// How downloads behave: time-outs, progress reporting and cancellation.
public struct DownloadOptions: Sendable {
    /// Seconds without a byte (connecting, waiting for headers, or between data) before the
    /// transfer is abandoned with `.timedOut`. Default 30.
    public var idleTimeout: Double
    /// Seconds one file's transfer may take in all; `nil` (the default) for no limit, so slow
    /// but steady downloads of large weights finish.
    public var transferTimeout: Double?
    /// Called as bytes arrive, on a background thread.
    public var progress: (@Sendable (DownloadProgress) -> Void)?
    /// Set it to stop a download from another thread.
    public var cancellation: DownloadCancellation?

    /// Options with the default time-outs and no progress or cancellation unless given.
    public init(idleTimeout: Double = 30, transferTimeout: Double? = nil,
                progress: (@Sendable (DownloadProgress) -> Void)? = nil,
                cancellation: DownloadCancellation? = nil) {
        self.idleTimeout = idleTimeout
        self.transferTimeout = transferTimeout
        self.progress = progress
        self.cancellation = cancellation
    }
}

/// Progress of a model download: the file being transferred and the whole model. Prints as
/// `weights: 1048576 of 8388608 bytes (overall 1050000 of 8390000)`.
public struct DownloadProgress: Sendable, Equatable, CustomStringConvertible {
    /// The file being transferred.
    public var role: ModelFileRole
    /// The file's URL.
    public var url: URL
    /// Bytes of this file on disk so far (a resumed download starts above zero).
    public var fileBytes: Int64
    /// This file's size, when the server gave it.
    public var fileTotal: Int64?
    /// Bytes of the files that need transferring, on disk so far.
    public var overallBytes: Int64
    /// The sum of the sizes of the files that need transferring, once every one is known.
    public var overallTotal: Int64?

    public var description: String {
        func part(_ bytes: Int64, _ total: Int64?) -> String { total.map { "\(bytes) of \($0)" } ?? "\(bytes)" }
        return "\(role): \(part(fileBytes, fileTotal)) bytes (overall \(part(overallBytes, overallTotal)))"
    }
}

/// A thread-safe flag that stops a download: the transfer ends within a fraction of a second
/// with `ModelSourceError.Reason.cancelled`, and the cache is left as it was.
public final class DownloadCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// A flag not yet set.
    public init() {}

    /// Asks the download to stop.
    public func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}
