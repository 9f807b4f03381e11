import CZMQ
import Foundation

/// Frigate's ZMQ detector protocol: a ROUTER socket answering REQ clients (`zmq_ipc.py`).
/// First the model handshake (`ZMQRequest.modelRequest`, `.modelData`), each answered with one
/// JSON frame; then tensor requests of two frames (JSON header, tensor), each answered with two
/// (`{"shape": [20, 6], "dtype": "float32"}`, 480 bytes), or `{"error": ...}` and an empty frame
/// for a refused one (Frigate then logs it and reads no detections). A client that sends tensors
/// without the handshake (Frigate before September 2025) gets the first model.
///
/// One thread owns the socket: it receives, queues the work (the same bounded queue as HTTP)
/// and sends the replies the workers leave in an outbox, woken by an eventfd.
final class ZMQServer: @unchecked Sendable {
    private let core: ServerCore
    private let socket: ZMQSocket
    private let models: FrigateModels
    /// A pipe whose read end wakes the socket's thread (`zmq_poll` watches it beside the socket).
    private let wake: (read: Int32, write: Int32)
    private let condition = NSCondition()
    private var outbox: [[[UInt8]]] = []
    private var receiving = true
    private var stopped = false
    private var exited = false
    /// Handshakes run one at a time, off the socket's thread.
    private let handshakes = DispatchQueue(label: "SwiftDarknet.Serve zmq handshakes")
    private var handshakesWaiting = 0
    /// Handshakes (each holding a message of up to the upload limit) that may wait or run at once.
    static let maximumHandshakes = 8
    /// The endpoint bound (a wildcard port resolved).
    let endpoint: String

    init(endpoint: String, core: ServerCore) throws(ServeStartError) {
        self.core = core
        models = FrigateModels(served: core.models, directory: core.configuration.zmqModelDirectory)
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
        let request: ZMQRequest
        do {
            request = try ZMQRequest(frames: payload, count: payloadCount, maxPixels: core.configuration.maxPixels)
            if core.isDraining { throw ServeError.draining }
        } catch let error as ModelTransferError {
            let reply = ModelHandshakeReply(modelAvailable: false, modelSaved: false, modelLoaded: false, modelName: "", message: error.description)
            finish(envelope: envelope, frames: [reply.jsonBytes()], outcome: .failed(error), arrived: arrived,
                   summary: "zmq handshake", bytesIn: bytesIn)
            return
        } catch {
            fail(envelope: envelope, error: error as? any HTTPStatusError, arrived: arrived, summary: "zmq \(payloadCount) frames", bytesIn: bytesIn)
            return
        }
        switch request {
        case .tensor(let tensor):
            detect(tensor, model: models.model(for: envelope[0]), envelope: envelope, arrived: arrived, bytesIn: bytesIn)
        case .modelRequest, .modelData:
            // Loading a model takes seconds: not on the socket's thread, which keeps serving
            // tensors, but on one handshake thread, in order, at most `maximumHandshakes` waiting.
            let accepted = condition.withLock {
                guard handshakesWaiting < Self.maximumHandshakes else { return false }
                handshakesWaiting += 1
                return true
            }
            guard accepted else {
                let error = ModelTransferError.busy(Self.maximumHandshakes)
                let reply = ModelHandshakeReply(modelAvailable: false, modelSaved: false, modelLoaded: false, modelName: "", message: error.description)
                finish(envelope: envelope, frames: [reply.jsonBytes()], outcome: .failed(error), arrived: arrived,
                       summary: Self.summary(request), bytesIn: bytesIn)
                return
            }
            handshakes.async { [self] in
                let (reply, error) = shakeHands(request, peer: envelope[0])
                condition.withLock { handshakesWaiting -= 1 }
                finish(envelope: envelope, frames: [reply.jsonBytes()], outcome: error.map { .failed($0) } ?? .handshake(reply.message),
                       arrived: arrived, summary: Self.summary(request), bytesIn: bytesIn)
            }
        }
    }

    /// Queues detection in `request` with `model`; its reply goes to `envelope`.
    private func detect(_ request: TensorRequest, model: ServedModel, envelope: [[UInt8]], arrived: ContinuousClock.Instant, bytesIn: Int) {
        let summary = "zmq \(request.layout.rawValue) \(request.width)x\(request.height) \(request.elementType.rawValue)"
        let core = core
        let accepted = core.pipeline.submit { [self] waited in
            let prepared: DetectionService.PreparedInput
            do {
                guard waited <= core.configuration.requestTimeout else { throw ServeError.expiredInQueue(waited: waited) }
                prepared = try core.service.prepare(request, for: model)
            } catch {
                fail(envelope: envelope, error: error as? any HTTPStatusError ?? ServeError.inferenceFailed("\(error)"),
                     arrived: arrived, summary: summary, bytesIn: bytesIn)
                return nil
            }
            return { [self] in
                do throws(ServeError) {
                    let result = try core.service.detect(prepared, with: model)
                    core.metrics.recordInference(model: model.name, arithmetic: model.arithmetic, seconds: result.inferenceSeconds, queued: waited.seconds)
                    let detections = FrigateDetections(result.detections, width: result.width, height: result.height)
                    finish(envelope: envelope, frames: [FrigateDetections.header, detections.bytes], outcome: .detected(result),
                           arrived: arrived, summary: summary, bytesIn: bytesIn)
                } catch {
                    fail(envelope: envelope, error: error, arrived: arrived, summary: summary, bytesIn: bytesIn)
                }
            }
        }
        if !accepted {
            fail(envelope: envelope, error: core.isDraining ? ServeError.draining : ServeError.queueFull(capacity: core.pipeline.capacity),
                 arrived: arrived, summary: summary, bytesIn: bytesIn)
        }
    }

    /// Answers Frigate's model handshake: whether the named model is served (loading one saved
    /// by an earlier transfer), or the transferred file saved and loaded. The peer's tensors then
    /// go to that model.
    private func shakeHands(_ request: ZMQRequest, peer: [UInt8]) -> (ModelHandshakeReply, ModelTransferError?) {
        switch request {
        case .modelRequest(let name):
            do throws(ModelTransferError) {
                guard let model = try models.find(name) else {
                    return (ModelHandshakeReply(modelAvailable: false, modelLoaded: false, modelName: name,
                                                message: "no model '\(name)' here; send its file (model_data)"), nil)
                }
                models.use(model, for: peer)
                return (ModelHandshakeReply(modelAvailable: true, modelLoaded: true, modelName: name, message: "serving '\(name)' as \(model.name)"), nil)
            } catch {
                return (ModelHandshakeReply(modelAvailable: true, modelLoaded: false, modelName: name, message: error.description), error)
            }
        case .modelData(let name, let bytes):
            do throws(ModelTransferError) {
                let model = try models.save(name, bytes: bytes)
                models.use(model, for: peer)
                return (ModelHandshakeReply(modelSaved: true, modelLoaded: true, modelName: name,
                                            message: "saved \(bytes.count) bytes and loaded '\(name)' in \(String(format: "%.2f", model.loadSeconds)) s"), nil)
            } catch {
                return (ModelHandshakeReply(modelSaved: false, modelLoaded: false, modelName: name, message: error.description), error)
            }
        case .tensor:
            preconditionFailure("tensors are detected, not handshakes")
        }
    }

    private static func summary(_ request: ZMQRequest) -> String {
        switch request {
        case .modelRequest(let name): "zmq model_request \(name)"
        case .modelData(let name, let bytes): "zmq model_data \(name) \(bytes.count) bytes"
        case .tensor: "zmq tensor"
        }
    }

    /// How an exchange ended, for the log line and the metrics.
    private enum Outcome {
        case detected(DetectionService.Result)
        case handshake(String)
        case failed(any HTTPStatusError)
    }

    /// Replies with the two-frame error reply Frigate's tensor requests get.
    private func fail(envelope: [[UInt8]], error: (any HTTPStatusError)?, arrived: ContinuousClock.Instant, summary: String, bytesIn: Int) {
        let error = error ?? ServeError.inferenceFailed("failed")
        finish(envelope: envelope, frames: [ErrorHeader(error: String(describing: error)).jsonBytes(), []], outcome: .failed(error),
               arrived: arrived, summary: summary, bytesIn: bytesIn)
    }

    /// Puts the reply in the outbox, logs and counts the request.
    private func finish(envelope: [[UInt8]], frames: [[UInt8]], outcome: Outcome, arrived: ContinuousClock.Instant, summary: String, bytesIn: Int) {
        condition.withLock { outbox.append(envelope + frames) }
        signal()
        var record = RequestRecord(client: "zmq", request: summary, status: 200, bytesIn: bytesIn, bytesOut: frames.reduce(0) { $0 + $1.count },
                                   seconds: arrived.duration(to: .now).seconds)
        var reason: String?
        switch outcome {
        case .detected(let result):
            record.inferenceSeconds = result.inferenceSeconds
            record.predictions = min(result.detections.count, FrigateDetections.rows)
        case .handshake(let message):
            record.note = message
        case .failed(let error):
            (record.status, record.note, reason) = (error.status, String(describing: error), error.reason)
        }
        core.metrics.recordRequest(endpoint: "zmq", status: record.status, seconds: record.seconds, errorReason: reason)
        core.log(record)
        core.exchangeEnded()
    }

    /// The header frame of an error reply.
    private struct ErrorHeader: Encodable {
        let error: String
    }
}
