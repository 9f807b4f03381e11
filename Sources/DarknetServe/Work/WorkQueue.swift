import Foundation

/// A bounded queue of jobs run by a fixed set of worker threads: the server's admission
/// control. `submit` never waits: with `capacity` jobs already waiting it refuses the job, so
/// the caller can answer "busy" at once instead of holding the request.
final class WorkQueue: @unchecked Sendable {
    /// Jobs that may wait for a worker (those running are not counted).
    let capacity: Int
    let workers: Int
    private let condition = NSCondition()
    /// Jobs in arrival order; those before `head` were taken (their slots emptied, so a finished
    /// job's closure, and the request it holds, is freed at once, not at the next compaction).
    private var waiting: [Job?] = []
    private var head = 0
    private var running = 0
    private var closed = false
    private var threads: [Thread] = []
    private var exited = 0

    private struct Job {
        let enqueued: ContinuousClock.Instant
        let work: @Sendable (_ waited: Duration) -> Void
    }

    /// Starts `workers` threads named `name`, at `niceness` (Linux: each thread's own nice value,
    /// 0 ... 19; larger yields the CPU to the process's other threads).
    init(capacity: Int, workers: Int, name: String, niceness: Int32 = 0) {
        self.capacity = max(0, capacity)
        self.workers = max(1, workers)
        for index in 0..<self.workers {
            let thread = Thread {   // the threads keep the queue alive until they exit
                #if os(Linux)
                if niceness > 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
                #endif
                self.workLoop()
            }
            thread.name = "\(name) \(index + 1)"
            thread.stackSize = 8 << 20
            threads.append(thread)
            thread.start()
        }
    }

    /// Queues `work` (it gets the time it waited); false if the queue is full or closed. A
    /// job is taken at once when a worker is idle, even with `capacity` 0.
    func submit(_ work: @escaping @Sendable (_ waited: Duration) -> Void) -> Bool {
        condition.withLock {
            guard !closed, waiting.count - head < capacity + max(0, workers - running) else { return false }
            waiting.append(Job(enqueued: .now, work: work))
            condition.broadcast()   // a blocked submitter waits on the same condition as the workers
            return true
        }
    }

    /// Queues `work`, waiting while the queue is full; false (and `work` not queued) once the
    /// queue is closed. For a stage that takes its jobs from an earlier stage, which holds its
    /// thread meanwhile: the earlier stage slows down instead of the jobs piling up.
    func submitWaitingForRoom(_ work: @escaping @Sendable (_ waited: Duration) -> Void) -> Bool {
        condition.withLock {
            while !closed, waiting.count - head >= capacity + max(0, workers - running) { condition.wait() }
            guard !closed else { return false }
            waiting.append(Job(enqueued: .now, work: work))
            condition.broadcast()
            return true
        }
    }

    /// Jobs waiting, and jobs running.
    var depth: (waiting: Int, running: Int) {
        condition.withLock { (waiting.count - head, running) }
    }

    /// Refuses new jobs, lets the queued and running ones finish, and waits up to `timeout` for
    /// the workers to exit. Returns whether all of them did.
    @discardableResult
    func close(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return condition.withLock {
            closed = true
            condition.broadcast()
            while exited < workers {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return false }
                _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
            }
            return true
        }
    }

    private func workLoop() {
        while let job = next() {
            job.work(job.enqueued.duration(to: .now))
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
        condition.withLock {
            exited += 1
            condition.broadcast()
        }
    }

    /// The next job (counted as running), or nil once the queue is closed and empty.
    private func next() -> Job? {
        condition.withLock {
            while head == waiting.count, !closed { condition.wait() }
            guard head < waiting.count else { return nil }
            let job = waiting[head]
            waiting[head] = nil
            head += 1
            if head > 64, head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            running += 1
            return job
        }
    }
}

extension Duration {
    /// This duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
