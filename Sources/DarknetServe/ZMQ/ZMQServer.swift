import CZMQ
import Foundation

/// Frigate's ZMQ detector protocol: a ROUTER socket answering REQ clients (`zmq_ipc.py`), each
/// request two frames (JSON header, tensor) and each reply two frames (`{"shape": [20, 6],
/// "dtype": "float32"}`, 480 bytes), or `{"error": ...}` and an empty frame for a refused one
/// (Frigate then logs it and reads no detections).
///
/// One thread owns the socket: it receives, queues the work (the same bounded queue as HTTP)
/// and sends the replies the workers leave in an outbox, woken by an eventfd.
final class ZMQServer: @unchecked Sendable {
    private let core: ServerCore
    private let socket: ZMQSocket
    /// A pipe whose read end wakes the socket's thread (`zmq_poll` watches it beside the socket).
    private let wake: (read: Int32, write: Int32)
    private let condition = NSCondition()
    private var outbox: [[[UInt8]]] = []
    private var receiving = true
    private var stopped = false
    private var exited = false
    /// The endpoint bound (a wildcard port resolved).
    let endpoint: String

    init(endpoint: String, core: ServerCore) throws(ServeStartError) {
        self.core = core
        socket = try ZMQSocket(binding: endpoint, maxFrameBytes: core.configuration.maxUploadBytes)
        self.endpoint = socket.endpoint
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            socket.close()
            throw .zmq(endpoint: endpoint, reason: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        wake = (ends[0], ends[1])
        let thread = Thread { [self] in run() }
        thread.name = "SwiftDarknet.Serve zmq"
        thread.start()
    }

    /// Takes no new requests; replies to those in progress are still sent.
    func stopReceiving() { condition.withLock { receiving = false } }

    /// Stops the thread (after the outbox is sent) and closes the socket.
    func stop() {
        condition.withLock { stopped = true }
        signal()
        condition.withLock { while !exited { condition.wait() } }
        socket.close()
        Foundation.close(wake.read)
        Foundation.close(wake.write)
    }

    private func signal() {
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)   // a full pipe already wakes the thread
    }

    private func run() {
        while true {
            let (listening, done) = condition.withLock { (receiving, stopped) }
            var items = [zmq_pollitem_t(socket: socket.socket, fd: 0, events: Int16(listening ? ZMQ_POLLIN : 0), revents: 0),
                         zmq_pollitem_t(socket: nil, fd: wake.read, events: Int16(ZMQ_POLLIN), revents: 0)]
            sendReplies()
            if done { break }
            _ = zmq_poll(&items, 2, 100)
            if items[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 256)
                while read(wake.read, &drained, drained.count) > 0 {}
            }
            if listening, items[0].revents & Int16(ZMQ_POLLIN) != 0 {
                while let (frames, count) = socket.receive(keep: 8) { handle(frames, count: count) }
            }
        }
        condition.withLock {
            exited = true
            condition.broadcast()
        }
    }

    private func sendReplies() {
        let replies = condition.withLock {
            defer { outbox.removeAll() }
            return outbox
        }
        for reply in replies { socket.send(reply) }
    }

    /// One message: the routing envelope (the peer's identity and, from REQ, an empty
    /// delimiter), then the request's frames.
    private func handle(_ frames: [[UInt8]], count: Int) {
        let arrived = ContinuousClock.now
        guard frames.count >= 2 else { return }   // a ROUTER message always starts with the identity
        let envelopeCount = frames[1].isEmpty ? 2 : 1
        let envelope = Array(frames.prefix(envelopeCount))
        let payload = Array(frames.dropFirst(envelopeCount))
        let payloadCount = count - envelopeCount
        let bytesIn = payload.reduce(0) { $0 + $1.count }
        core.exchangeStarted()
        let request: TensorRequest
        do {
            guard payloadCount == 2 else { throw TensorError.frameCount(payloadCount) }
            request = try TensorRequest(frames: payload, maxPixels: core.configuration.maxPixels)
            if core.isDraining { throw ServeError.draining }
        } catch {
            finish(envelope: envelope, reply: nil, error: error as? any HTTPStatusError, arrived: arrived, summary: "zmq \(payloadCount) frames", bytesIn: bytesIn)
            return
        }
        let summary = "zmq \(request.layout.rawValue) \(request.width)x\(request.height) \(request.elementType.rawValue)"
        let core = core
        let accepted = core.pipeline.submit { [self] waited in
            let model = core.models[0]
            let prepared: DetectionService.PreparedInput
            do {
                guard waited <= core.configuration.requestTimeout else { throw ServeError.expiredInQueue(waited: waited) }
                prepared = try core.service.prepare(request, for: model)
            } catch {
                finish(envelope: envelope, reply: nil, error: error as? any HTTPStatusError ?? ServeError.inferenceFailed("\(error)"),
                       arrived: arrived, summary: summary, bytesIn: bytesIn)
                return nil
            }
            return { [self] in
                do throws(ServeError) {
                    let result = try core.service.detect(prepared, with: model)
                    core.metrics.recordInference(model: model.name, seconds: result.inferenceSeconds, queued: waited.seconds)
                    finish(envelope: envelope, reply: (FrigateDetections(result.detections, width: result.width, height: result.height), result),
                           error: nil, arrived: arrived, summary: summary, bytesIn: bytesIn)
                } catch {
                    finish(envelope: envelope, reply: nil, error: error, arrived: arrived, summary: summary, bytesIn: bytesIn)
                }
            }
        }
        if !accepted {
            finish(envelope: envelope, reply: nil, error: core.isDraining ? ServeError.draining : ServeError.queueFull(capacity: core.pipeline.capacity),
                   arrived: arrived, summary: summary, bytesIn: bytesIn)
        }
    }

    /// Puts the reply (or the error reply) in the outbox, logs and counts the request.
    private func finish(envelope: [[UInt8]], reply: (FrigateDetections, DetectionService.Result)?, error: (any HTTPStatusError)?,
                        arrived: ContinuousClock.Instant, summary: String, bytesIn: Int) {
        let frames: [[UInt8]]
        if let (detections, _) = reply {
            frames = [FrigateDetections.header, detections.bytes]
        } else {
            frames = [ErrorHeader(error: error.map { String(describing: $0) } ?? "failed").jsonBytes(), []]
        }
        condition.withLock { outbox.append(envelope + frames) }
        signal()
        let status = error?.status ?? 200
        let seconds = arrived.duration(to: .now).seconds
        core.metrics.recordRequest(endpoint: "zmq", status: status, seconds: seconds, errorReason: error?.reason)
        core.log(RequestRecord(client: "zmq", request: summary, status: status, bytesIn: bytesIn, bytesOut: frames.reduce(0) { $0 + $1.count },
                               seconds: seconds, inferenceSeconds: reply?.1.inferenceSeconds,
                               predictions: reply.map { min($0.1.detections.count, FrigateDetections.rows) },
                               note: error.map { String(describing: $0) }))
        core.exchangeEnded()
    }

    /// The header frame of an error reply.
    private struct ErrorHeader: Encodable {
        let error: String
    }
}
