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

    /// Runs `body(range, worker)` over pieces that together cover `0..<count` once, and returns
    /// when all are done (see `swiftdarknet_pool_run_ranges`): `0..<count` is cut into `units`
    /// near-equal runs; each of `workers` workers starts on its own share of them and, once done,
    /// takes half of what is left of another's, so a slowed core ends with less of the job.
    /// With `finest`, every piece is one unit.
    package func runRanges(_ count: Int, units: Int, workers: Int, finest: Bool = false,
                           _ body: (Range<Int>, Int) -> Void) {
        guard let pool, workers > 1, units > 1 else {
            if count > 0 { body(0..<count, 0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            var job = body
            withUnsafeMutablePointer(to: &job) { job in
                swiftdarknet_pool_run_ranges(pool, count, units, workers,
                                             finest ? SWIFTDARKNET_PIECES_FINEST : SWIFTDARKNET_PIECES_HALVING,
                                             { context, begin, end, worker in
                    context!.assumingMemoryBound(to: ((Range<Int>, Int) -> Void).self).pointee(begin..<end, worker)
                }, job)
            }
        }
    }
}
