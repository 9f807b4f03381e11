import Foundation

/// Produces `count` elements in order on a thread of its own, at most `capacity` ahead of the
/// consumer, who takes them with `next()` in the same order.
final class Prefetcher<Element: Sendable>: @unchecked Sendable {
    // Every mutable property is guarded by `condition`.
    private let condition = NSCondition()
    private var ready: [Element] = []
    private var cancelled = false
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the producing thread.
    /// - Parameters:
    ///   - capacity: finished elements waiting for the consumer at most (at least 1); one
    ///     more may be in production.
    ///   - produce: makes element `i`; called for `i = 0, 1, ...` in order, on the thread.
    init(count: Int, capacity: Int, produce: @escaping @Sendable (Int) -> Element) {
        let capacity = max(1, capacity)
        let thread = Thread { [self] in
            defer { stopped.signal() }
            for i in 0..<count {
                condition.lock()
                while ready.count >= capacity && !cancelled { condition.wait() }
                let stop = cancelled
                condition.unlock()
                if stop { return }
                let element = produce(i)
                condition.lock()
                ready.append(element)
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.name = "SwiftDarknet.BatchPrefetch"
        thread.start()
    }

    /// The next element in order, waiting for it if needed. Call it at most `count` times.
    func next() -> Element {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty { condition.wait() }
        let element = ready.removeFirst()
        condition.broadcast()
        return element
    }

    /// Stops production (after the element in progress, if any) and waits for the thread to
    /// end. Call it exactly once.
    func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        stopped.wait()
    }
}
