import Foundation

/// Threads of the library's own for the forward passes of `async` calls, so that a pass never
/// occupies a thread of Swift's cooperative pool. Started on demand, up to `maximum`; a thread
/// with nothing to do for `idleTimeout` seconds ends.
package final class LibraryThreads: @unchecked Sendable {
    // Invariant: `jobs`, `threads` and `idleThreads` are read and written under `condition`'s lock.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var threads = 0
    private var idleThreads = 0
    private let maximum: Int
    private let idleTimeout: Double
    private let name: String

    package init(maximum: Int, idleTimeout: Double, name: String) {
        self.maximum = max(1, maximum)
        self.idleTimeout = max(0.05, idleTimeout)
        self.name = name
    }

    /// Runs `job` on one of the threads, as soon as one is free.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let start = idleThreads == 0 && threads < maximum
        if start { threads += 1 }
        condition.signal()
        condition.unlock()
        guard start else { return }
        let thread = Thread { [self] in work() }
        thread.name = name
        thread.start()
    }

    private func work() {
        condition.lock()
        while true {
            while jobs.isEmpty {
                idleThreads += 1
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
                idleThreads -= 1
                if !signalled && jobs.isEmpty {
                    threads -= 1
                    condition.unlock()
                    return
                }
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
    }
}

/// Set once when the task that waits for a job is cancelled; the job checks it before it starts.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    var isCancelled: Bool { lock.withLock { cancelled } }
    func cancel() { lock.withLock { cancelled = true } }
}
