import Dispatch

/// Splits a loop over `0..<count` into one contiguous chunk per thread, the way the forward
/// pass spreads every kernel over its threads (the micro-benchmarks use it to time the same
/// split). The BLAS is called single-threaded inside a chunk.
package struct ThreadSplit: Sendable {
    /// At most this many chunks run at once.
    package let threads: Int

    package init(threads: Int) {
        precondition(threads >= 1, "a split needs at least one thread")
        self.threads = threads
    }

    /// Runs `body(chunk, worker)` over `0..<count`, inline when one thread is enough (fewer
    /// than `minimumPerThread` items per extra thread). Workers are numbered from 0.
    package func callAsFunction(_ count: Int, minimumPerThread: Int = 1, _ body: (Range<Int>, Int) -> Void) {
        let workers = min(threads, count / max(minimumPerThread, 1))
        if workers <= 1 {
            body(0..<count, 0)
            return
        }
        withoutActuallyEscaping(body) { body in
            // Each worker touches a disjoint chunk; the closure only lives for this call.
            let work = UncheckedSendable(value: body)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                work.value((count * worker / workers)..<(count * (worker + 1) / workers), worker)
            }
        }
    }
}

/// Hands a value to `concurrentPerform` workers that each use a disjoint part of what it reaches.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
