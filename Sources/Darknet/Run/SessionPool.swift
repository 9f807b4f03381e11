import Foundation

/// A session and the buffer its next input is prepared in, lent to one caller at a time.
final class PooledSession: @unchecked Sendable {
    // Invariant: used by one caller at a time, between `SessionPool.take` and `give`.
    let session: InferenceSession
    /// The network input (`plan.inputShape.count` floats), written by the caller before `forward`.
    let input: UnsafeMutableBufferPointer<Float>
    fileprivate var idleSince: UInt64 = 0

    init(session: InferenceSession) {
        self.session = session
        input = .allocate(capacity: session.network.plan.inputShape.count)
        input.initialize(repeating: 0)
    }

    deinit { input.deallocate() }
}

/// The sessions of a `Detector` or `Classifier`: created on demand up to
/// `SessionPolicy.maximumSessions`, handed to waiting callers first come first served, and
/// freed after `SessionPolicy.idleTimeout` without use.
final class SessionPool: @unchecked Sendable {
    // Invariant: every field is read and written under `condition`'s lock; a session is in
    // `idle` or lent to exactly one caller.
    private let condition = NSCondition()
    private let policy: SessionPolicy
    private let make: @Sendable () -> InferenceSession
    private var idle: [PooledSession] = []
    private var live = 0
    private var waiters: [Waiter] = []
    private var nextWaiter = 0
    /// Tasks cancelled before they queued (their `onCancel` ran first).
    private var cancelledWaiters: Set<Int> = []
    private var trimScheduled = false
    private(set) var created = 0

    private enum Handoff {
        case thread(Slot)
        case task(CheckedContinuation<PooledSession, any Error>)
    }
    private struct Waiter {
        let id: Int
        let handoff: Handoff
    }
    /// Where a blocked thread receives its session.
    private final class Slot: @unchecked Sendable { var session: PooledSession? }

    init(policy: SessionPolicy, make: @escaping @Sendable () -> InferenceSession) {
        self.policy = policy
        self.make = make
    }

    /// Sessions created so far, and alive now.
    var statistics: (created: Int, live: Int) { condition.withLock { (created, live) } }

    /// A session for the calling thread, blocking while `maximumSessions` are lent out.
    func take() -> PooledSession {
        condition.lock()
        switch acquire() {
        case .idle(let session): condition.unlock(); return session
        case .create: condition.unlock(); return makeSession()
        case .wait: break
        }
        let slot = Slot()
        waiters.append(Waiter(id: nextID(), handoff: .thread(slot)))
        while slot.session == nil { condition.wait() }
        condition.unlock()
        return slot.session!
    }

    /// A session for the calling task, suspending (without holding a thread) while
    /// `maximumSessions` are lent out. Throws `CancellationError` if the task is cancelled
    /// before one is free.
    func take() async throws -> PooledSession {
        try Task.checkCancellation()
        let id = condition.withLock { nextID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PooledSession, any Error>) in
                serveOrQueue(id: id, continuation)
            }
        } onCancel: {
            cancelWaiter(id: id)
        }
    }

    /// Resumes `continuation` with a session now if one can be had, else queues it.
    private func serveOrQueue(id: Int, _ continuation: CheckedContinuation<PooledSession, any Error>) {
        condition.lock()
        if cancelledWaiters.remove(id) != nil {
            condition.unlock()
            continuation.resume(throwing: CancellationError())
            return
        }
        switch acquire() {
        case .idle(let session):
            condition.unlock()
            continuation.resume(returning: session)
        case .create:
            condition.unlock()
            continuation.resume(returning: makeSession())
        case .wait:
            waiters.append(Waiter(id: id, handoff: .task(continuation)))
            condition.unlock()
        }
    }

    /// A cancelled task stops waiting; if it has not queued yet, it will not.
    private func cancelWaiter(id: Int) {
        condition.lock()
        guard let index = waiters.firstIndex(where: { $0.id == id }) else {
            cancelledWaiters.insert(id)
            condition.unlock()
            return
        }
        let waiter = waiters.remove(at: index)
        condition.unlock()
        if case .task(let continuation) = waiter.handoff { continuation.resume(throwing: CancellationError()) }
    }

    /// Gives a session back: to the longest waiting caller, else to the idle list.
    func give(_ session: PooledSession) {
        condition.lock()
        guard waiters.isEmpty else {
            let waiter = waiters.removeFirst()
            switch waiter.handoff {
            case .thread(let slot):
                slot.session = session
                condition.broadcast()
                condition.unlock()
            case .task(let continuation):
                condition.unlock()
                continuation.resume(returning: session)
            }
            return
        }
        session.idleSince = DispatchTime.now().uptimeNanoseconds
        idle.append(session)
        let schedule = !trimScheduled
        trimScheduled = true
        condition.unlock()
        if schedule { scheduleTrim(after: policy.idleTimeout) }
    }

    private enum Acquisition { case idle(PooledSession), create, wait }

    /// Under the lock: an idle session, permission to create one (counted as live), or wait.
    private func acquire() -> Acquisition {
        if let session = idle.popLast() { return .idle(session) }
        guard live < policy.maximumSessions else { return .wait }
        live += 1
        created += 1
        return .create
    }

    private func makeSession() -> PooledSession { PooledSession(session: make()) }

    private func nextID() -> Int {
        nextWaiter += 1
        return nextWaiter
    }

    /// Frees the sessions idle for `idleTimeout` or longer; checks again while any are idle.
    private func scheduleTrim(after seconds: Double) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            let timeout = UInt64(self.policy.idleTimeout * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            self.condition.lock()
            let expired = self.idle.filter { now &- $0.idleSince >= timeout }
            self.idle.removeAll { now &- $0.idleSince >= timeout }
            self.live -= expired.count
            let next = self.idle.map { Double(timeout - min(timeout, now &- $0.idleSince)) / 1e9 }.min()
            self.trimScheduled = next != nil
            self.condition.unlock()
            if let next { self.scheduleTrim(after: max(next, 0.01)) }
            _ = expired  // freed here, outside the lock
        }
    }
}
