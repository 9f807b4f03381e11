/// Splits a loop over `0..<count` over a pool's threads, the way the forward pass spreads every
/// kernel over its threads (the micro-benchmarks use it to time the same split). Each thread
/// starts on its own contiguous share and, once done, takes part of what is left of another's,
/// so a core that a virtual machine's host slows down ends the step with less of it. The BLAS
/// is called single-threaded inside a piece.
package struct ThreadSplit: Sendable {
    /// The helper threads pieces run on besides the caller's; nil: one thread.
    let pool: WorkerPool?
    /// Every piece one `minimumPiece` long (for tests: each item computed in a piece of its
    /// own, whatever the timing), instead of halves of what is left.
    let finestPieces: Bool
    /// At most this many of the pool's threads run pieces (see `limited(to:)`).
    private var workerLimit = Int.max

    /// At most this many pieces run at once.
    package var threads: Int { min(pool?.threads ?? 1, workerLimit) }

    /// The same split on at most `threads` of its threads (at least 1): the others are left
    /// idle, and every kernel cuts its steps as it would at that thread count.
    package func limited(to threads: Int) -> ThreadSplit {
        var split = self
        split.workerLimit = max(1, threads)
        return split
    }

    /// A split over `threads` threads: the caller's and a new pool's helpers.
    package init(threads: Int, finestPieces: Bool = false) {
        precondition(threads >= 1, "a split needs at least one thread")
        pool = threads > 1 ? WorkerPool(threads: threads) : nil
        self.finestPieces = finestPieces
    }

    /// Runs `body(piece, worker)` over pieces that cover `0..<count` once, each at least
    /// `minimumPiece` long (all of it when shorter), on at most `threads` threads: inline when
    /// there is too little for two pieces. Workers are numbered from 0; each worker runs one
    /// piece at a time, so it can own scratch memory.
    package func callAsFunction(_ count: Int, minimumPiece: Int = 1, _ body: (Range<Int>, Int) -> Void) {
        let units = count / max(minimumPiece, 1)
        let workers = min(threads, units)
        guard workers > 1, let pool else {
            body(0..<count, 0)
            return
        }
        pool.runRanges(count, units: units, workers: workers, finest: finestPieces, body)
    }
}
