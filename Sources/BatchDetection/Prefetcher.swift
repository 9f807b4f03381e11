import Foundation

/// Produces `count` elements on threads of its own, at most `capacity` ahead of the consumer,
/// who takes them with `next()` in index order.
final class Prefetcher<Element: Sendable>: @unchecked Sendable {
    // Every mutable property is guarded by `condition`.
    private let condition = NSCondition()
    /// Finished elements the consumer has not taken, by index.
    private var finished: [Int: Element] = [:]
    /// The next index a worker takes, and the next one `next()` returns.
    private var started = 0, taken = 0
    private var cancelled = false
    private let stopped: DispatchSemaphore
    private let workers: Int

    /// Starts `workers` producing threads.
    /// - Parameters:
    ///   - capacity: elements finished or in production ahead of the consumer at most, beyond
    ///     one per worker (at least 1): a worker starts element `i` once `i < taken + capacity +
    ///     workers - 1`. With one worker, `capacity` finished elements wait and one more is made.
    ///   - workers: threads producing elements at once (at least 1); each takes the lowest
    ///     index not yet started.
    ///   - produce: makes element `i`, once for each `i` in `0..<count`, on a worker's thread.
    init(count: Int, capacity: Int, workers: Int = 1, produce: @escaping @Sendable (Int) -> Element) {
        let capacity = max(1, capacity), workers = max(1, min(workers, max(count, 1)))
        self.workers = workers
        stopped = DispatchSemaphore(value: 0)
        for worker in 0..<workers {
            let thread = Thread { [self] in
                defer { stopped.signal() }
                while true {
                    condition.lock()
                    while started < count && started >= taken + capacity + workers - 1 && !cancelled { condition.wait() }
                    guard started < count, !cancelled else {
                        condition.unlock()
                        return
                    }
                    let index = started
                    started += 1
                    condition.unlock()
                    let element = produce(index)
                    condition.lock()
                    finished[index] = element
                    condition.broadcast()
                    condition.unlock()
                }
            }
            thread.name = "SwiftDarknet.BatchPrefetch.\(worker)"
            thread.start()
        }
    }

    /// The next element in index order, waiting for it if needed. Call it at most `count` times.
    func next() -> Element {
        condition.lock()
        defer { condition.unlock() }
        while finished[taken] == nil { condition.wait() }
        let element = finished.removeValue(forKey: taken)!
        taken += 1
        condition.broadcast()
        return element
    }

    /// Stops production (after the elements in progress, if any) and waits for the threads to
    /// end. Call it exactly once.
    func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        for _ in 0..<workers { stopped.wait() }
    }
}
