import Foundation

/// Idle sessions waiting for the next `detect` or `classify` call, so a shared `Detector` or
/// `Classifier` reuses scratch memory instead of allocating it per call.
final class SessionPool: @unchecked Sendable {
    // Invariant: a session is in `idle` or owned by exactly one caller between take and give.
    private let lock = NSLock()
    private var idle: [InferenceSession] = []

    func take() -> InferenceSession? {
        lock.withLock { idle.popLast() }
    }

    func give(_ session: InferenceSession) {
        lock.withLock { idle.append(session) }
    }
}
