import CZMQ
import Foundation

/// A libzmq ROUTER socket bound to an endpoint, with its own context: multipart receive and send
/// (never blocking), for one thread.
final class ZMQSocket {
    private let context: UnsafeMutableRawPointer
    let socket: UnsafeMutableRawPointer
    /// The endpoint bound, with a wildcard port (`tcp://127.0.0.1:*`) resolved.
    private(set) var endpoint: String

    /// Binds a ROUTER socket to `endpoint`; messages over `maxFrameBytes` a frame disconnect
    /// their sender.
    init(binding endpoint: String, maxFrameBytes: Int) throws(ServeStartError) {
        guard let context = zmq_ctx_new() else { throw .zmq(endpoint: endpoint, reason: Self.lastError()) }
        guard let socket = zmq_socket(context, ZMQ_ROUTER) else {
            let reason = Self.lastError()
            zmq_ctx_term(context)
            throw .zmq(endpoint: endpoint, reason: reason)
        }
        self.context = context
        self.socket = socket
        self.endpoint = endpoint
        set(ZMQ_MAXMSGSIZE, Int64(maxFrameBytes))
        set(ZMQ_LINGER, Int32(1000))   // replies queued at shutdown get a second to leave
        set(ZMQ_RCVHWM, Int32(64))
        set(ZMQ_SNDHWM, Int32(64))
        guard zmq_bind(socket, endpoint) == 0 else {
            var reason = Self.lastError()
            if zmq_errno() == ENOENT, endpoint.hasPrefix("ipc://") {
                reason += " (the folder of \(endpoint.dropFirst("ipc://".count)) must exist)"
            }
            close()
            throw .zmq(endpoint: endpoint, reason: reason)
        }
        var name = [CChar](repeating: 0, count: 1024)
        var length = name.count
        if zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, &name, &length) == 0 {
            self.endpoint = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The next message's frames, or nil if none is waiting. Only the first `keep` frames are
    /// kept (the count is still returned), so a message of many frames cannot grow memory.
    func receive(keep: Int) -> (frames: [[UInt8]], count: Int)? {
        var frames: [[UInt8]] = []
        var count = 0
        var more = true
        while more {
            var message = zmq_msg_t()
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            guard zmq_msg_recv(&message, socket, count == 0 ? ZMQ_DONTWAIT : 0) >= 0 else { return count == 0 ? nil : (frames, count) }
            if frames.count < keep {
                let size = zmq_msg_size(&message)
                frames.append(size == 0 ? [] : [UInt8](UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: size)))
            }
            count += 1
            more = zmq_msg_more(&message) != 0
        }
        return (frames, count)
    }

    /// Sends `frames` as one message (dropped by libzmq if the peer is gone).
    func send(_ frames: [[UInt8]]) {
        for (index, frame) in frames.enumerated() {
            let flags = (index < frames.count - 1 ? ZMQ_SNDMORE : 0) | ZMQ_DONTWAIT
            _ = frame.withUnsafeBytes { zmq_send(socket, $0.baseAddress, $0.count, flags) }
        }
    }

    func close() {
        zmq_close(socket)
        zmq_ctx_term(context)
    }

    private func set<T: FixedWidthInteger>(_ option: Int32, _ value: T) {
        var value = value
        zmq_setsockopt(socket, option, &value, MemoryLayout<T>.size)
    }

    private static func lastError() -> String { String(cString: zmq_strerror(zmq_errno())) }
}
