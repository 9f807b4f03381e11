import Foundation

/// A value that threads the test starts (jobs, readers, callbacks) share, behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    /// A copy of the value now.
    public var value: Value { lock.withLock { stored } }

    /// Runs `body` on the value with the lock held.
    @discardableResult
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&stored) }
    }
}
