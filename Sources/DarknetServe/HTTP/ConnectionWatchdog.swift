import Foundation

/// Cuts off HTTP connections that take longer than the request timeout to deliver a request
/// (headers and body) or to take its response: slow-loris clients that trickle bytes fast
/// enough to dodge the idle timeout.
///
/// libmicrohttpd has no call to close a connection from outside its own thread, so the
/// watchdog shuts the socket down (`shutdown(2)`, not `close`): libmicrohttpd then reads the
/// end of the stream and closes the connection itself, reporting the request as aborted. A
/// connection is tracked from libmicrohttpd's "started" notification to its "closed" one,
/// which comes before libmicrohttpd closes the socket; both take the watchdog's lock, so a
/// socket is only shut down while its connection still owns it.
final class ConnectionWatchdog: @unchecked Sendable {
    private let timeout: Duration
    private let condition = NSCondition()
    private var connections: [OpaquePointer: Entry] = [:]
    private var stopped = false
    private var thread: Thread?
    private var cutOff = 0

    private struct Entry {
        let socket: Int32
        /// When the connection is cut unless it progresses; nil while its request is processed.
        var deadline: ContinuousClock.Instant?
    }

    init(timeout: Duration) {
        self.timeout = timeout
        let thread = Thread { [self] in run() }
        thread.name = "SwiftDarknet.Serve watchdog"
        self.thread = thread
        thread.start()
    }

    /// A connection was accepted: its first request must arrive within the timeout.
    func opened(_ connection: OpaquePointer, socket: Int32) {
        condition.withLock { connections[connection] = Entry(socket: socket, deadline: .now + timeout) }
    }

    /// Its request is queued or running: no deadline until the response is ready.
    func processing(_ connection: OpaquePointer) {
        condition.withLock { connections[connection]?.deadline = nil }
    }

    /// It is sending a response, or waiting for the next request: a new deadline.
    func restart(_ connection: OpaquePointer) {
        condition.withLock { connections[connection]?.deadline = .now + timeout }
    }

    func closed(_ connection: OpaquePointer) {
        condition.withLock { _ = connections.removeValue(forKey: connection) }
    }

    /// Connections open now.
    var count: Int { condition.withLock { connections.count } }

    /// Connections cut off so far.
    var cutOffCount: Int { condition.withLock { cutOff } }

    /// Stops the watchdog's thread.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    private func run() {
        let tick = min(timeout / 4, .milliseconds(250))
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            let now = ContinuousClock.now
            for (connection, entry) in connections {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                connections[connection]?.deadline = nil
                cutOff += 1
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: tick.seconds))
        }
    }
}
