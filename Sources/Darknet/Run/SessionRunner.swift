import Foundation

/// Runs work that needs an inference session: borrows one from the pool (creating it, or
/// waiting for one, per the `SessionPolicy`), and for `async` callers runs the work on the
/// library's own threads.
final class SessionRunner: Sendable {
    let pool: SessionPool
    private let threads: LibraryThreads
    private let counter = ForwardCounter()

    init(policy: SessionPolicy, name: String, make: @escaping @Sendable () -> InferenceSession) {
        pool = SessionPool(policy: policy, make: make)
        threads = LibraryThreads(maximum: policy.maximumSessions, idleTimeout: max(policy.idleTimeout, 1), name: name)
    }

    /// Runs `work` on the calling thread with a session of its own.
    func run<R>(_ work: (PooledSession) throws -> R) throws -> R {
        let session = pool.take()
        defer { pool.give(session) }
        counter.increment()
        return try work(session)
    }

    /// Runs `work` on one of the library's threads with a session of its own; the calling
    /// task suspends meanwhile. A task cancelled before `work` starts gets `CancellationError`
    /// and `work` never runs.
    func run<R: Sendable>(_ work: @escaping @Sendable (PooledSession) throws -> R) async throws -> R {
        let session = try await pool.take()
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                threads.submit { [pool, counter] in
                    defer { pool.give(session) }
                    if flag.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    counter.increment()
                    continuation.resume(with: Result { try work(session) })
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Sessions created so far and alive now; calls whose work started.
    var statistics: SessionStatistics {
        let (created, live) = pool.statistics
        return SessionStatistics(created: created, live: live, started: counter.value)
    }
}

/// What a detector's or classifier's session pool has done so far.
public struct SessionStatistics: Sendable, Equatable {
    /// Sessions created since the detector was built (freed ones included).
    public let created: Int
    /// Sessions alive now (lent out or idle).
    public let live: Int
    /// Calls that ran (a forward pass each); cancelled ones that never started are not counted.
    public let started: Int
}

private final class ForwardCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
