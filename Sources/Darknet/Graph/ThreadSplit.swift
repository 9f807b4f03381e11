/// Splits a loop over `0..<count` into one contiguous chunk per thread, the way the forward
/// pass spreads every kernel over its threads (the micro-benchmarks use it to time the same
/// split). The BLAS is called single-threaded inside a chunk.
package struct ThreadSplit: Sendable {
    /// The helper threads chunks run on besides the caller's; nil: one thread.
    let pool: WorkerPool?

    /// At most this many chunks run at once.
    package var threads: Int { pool?.threads ?? 1 }

    /// A split over `threads` threads: the caller's and a new pool's helpers.
    package init(threads: Int) {
        precondition(threads >= 1, "a split needs at least one thread")
        pool = threads > 1 ? WorkerPool(threads: threads) : nil
    }

    /// Runs `body(chunk, worker)` over `0..<count`, inline when one thread is enough (fewer
    /// than `minimumPerThread` items per extra thread). Workers are numbered from 0.
    package func callAsFunction(_ count: Int, minimumPerThread: Int = 1, _ body: (Range<Int>, Int) -> Void) {
        let workers = min(threads, count / max(minimumPerThread, 1))
        guard workers > 1, let pool else {
            body(0..<count, 0)
            return
        }
        pool.run(workers) { worker in body((count * worker / workers)..<(count * (worker + 1) / workers), worker) }
    }
}
