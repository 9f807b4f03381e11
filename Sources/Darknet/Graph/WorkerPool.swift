import CDarknetKernels

/// Helper threads that a session's forward passes split their work over (see
/// `swiftdarknet_pool_create`): between the steps of a pass they spin instead of sleeping, so
/// handing over the next step costs no thread wake-up. Used by one thread at a time.
package final class WorkerPool: @unchecked Sendable {
    private let pool: OpaquePointer?

    /// Threads a job runs on: the caller's and the helpers'.
    package let threads: Int

    /// A pool for jobs of `threads` workers (`threads - 1` helper threads); with fewer helpers
    /// than asked for (threads could not be created), the caller runs the rest.
    package init(threads: Int) {
        pool = threads > 1 ? swiftdarknet_pool_create(threads - 1) : nil
        self.threads = 1 + (pool.map { swiftdarknet_pool_helpers($0) } ?? 0)
    }

    deinit { swiftdarknet_pool_destroy(pool) }

    /// Runs `body(worker)` for every worker in `0..<count` and returns when all are done:
    /// worker 0 on the calling thread, the others on helpers while there are enough.
    package func run(_ count: Int, _ body: (Int) -> Void) {
        guard let pool, count > 1 else {
            for worker in 0..<count { body(worker) }
            return
        }
        withoutActuallyEscaping(body) { body in
            var job = body
            withUnsafeMutablePointer(to: &job) { job in
                swiftdarknet_pool_run(pool, count, { context, worker in
                    context!.assumingMemoryBound(to: ((Int) -> Void).self).pointee(worker)
                }, job)
            }
        }
    }
}
