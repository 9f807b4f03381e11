import Darknet
import Foundation

/// A detection service speaking the DeepStack / CodeProject.AI HTTP API and, optionally,
/// Frigate's ZMQ detector protocol, over loaded Darknet models.
///
/// ```swift
/// let detector = try Detector(cfg: cfg, weights: weights, names: names,
///                             sessionPolicy: SessionPolicy(maximumSessions: 2))
/// var configuration = ServerConfiguration()
/// configuration.port = 5000
/// configuration.workers = 2
/// let server = try DetectionServer(models: [ServedModel(name: "yolov3-tiny", detector: detector, loadSeconds: 0.2)],
///                                  configuration: configuration)
/// // ... on SIGTERM:
/// server.shutdown()
/// ```
///
/// HTTP: `POST /v1/vision/detection` and `/v1/vision/custom/<model>` (multipart form: `image`,
/// `min_confidence`, `api_key`), `POST /v1/vision/custom/list`, `GET /health`, the probes
/// `/v2/health/live`, `/v2/health/ready` and `/v1/server/status/ping`, `GET /metrics`.
/// Requests from both front ends share one bounded work queue and `configuration.workers`
/// worker threads; each model's `Detector` is shared by all of them.
public final class DetectionServer: @unchecked Sendable {
    /// The HTTP port (the one picked when the configuration asked for 0).
    public let port: Int
    /// The ZMQ endpoint bound, if any (`tcp://127.0.0.1:*` resolved to the port picked).
    public let zmqEndpoint: String?
    private let core: ServerCore
    private let http: HTTPServer
    private let zmq: ZMQServer?
    private let lock = NSLock()
    private var stopped = false

    /// Starts serving `models` (the first answers `/v1/vision/detection` and ZMQ).
    /// - Throws: `ServeStartError`: no models, a name used twice or not usable in a URL, a
    ///   limit out of range, an address that does not resolve, a port in use, a ZMQ endpoint
    ///   that cannot be bound.
    public init(models: [ServedModel], configuration: ServerConfiguration) throws(ServeStartError) {
        try Self.validate(models: models, configuration: configuration)
        let core = ServerCore(models: models, configuration: configuration)
        self.core = core
        do {
            http = try HTTPServer(core: core)
        } catch {
            core.pipeline.close(timeout: .seconds(60))
            throw error
        }
        do {
            zmq = try configuration.zmqEndpoint.map { endpoint throws(ServeStartError) in try ZMQServer(endpoint: endpoint, core: core) }
        } catch {
            http.stop()
            core.pipeline.close(timeout: .seconds(60))
            throw error
        }
        port = http.port
        zmqEndpoint = zmq?.endpoint
        configuration.log.write(.info, "serving \(models.map(\.name).joined(separator: ", ")) on http://\(Self.urlHost(configuration.host)):\(port)"
            + (zmqEndpoint.map { " and \($0)" } ?? "") + " (\(configuration.workers) workers, queue \(configuration.queueCapacity))")
    }

    deinit { shutdown() }

    /// Stops taking requests: from now on every new request (on a new connection or an open one)
    /// is answered at once, detections and readiness with 503, liveness with 200, all with
    /// `Connection: close`. Finishes those begun before (still uploading, queued or running),
    /// waits up to the drain timeout for their responses to be sent, then stops listening.
    /// Returns whether every request finished in time. Idempotent.
    @discardableResult
    public func shutdown() -> Bool {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return true }
        let configuration = core.configuration
        core.startDraining()
        zmq?.stopReceiving()
        // Counted after the flag is set: a request that arrives now is refused, not waited for.
        let (waiting, running) = core.pipeline.depth
        let open = core.openExchanges
        configuration.log.write(.info, "draining: \(open) open request\(open == 1 ? "" : "s") (\(waiting) waiting for a worker, \(running) running, "
            + "the rest arriving or being answered)")
        // Requests begun before the drain, uploads included, are still queued and answered.
        let deadline = ContinuousClock.now + configuration.drainTimeout
        while core.openExchanges > 0, ContinuousClock.now < deadline { usleep(10_000) }
        // Suspended HTTP requests must be resumed before libmicrohttpd stops: every queued job runs.
        core.pipeline.close(timeout: .seconds(3600))
        while core.openExchanges > 0, ContinuousClock.now < deadline { usleep(10_000) }
        let finished = core.openExchanges == 0
        http.stop()
        zmq?.stop()
        configuration.log.write(finished ? .info : .warning,
                                finished ? "stopped" : "stopped with \(core.openExchanges) requests unfinished after the drain timeout")
        return finished
    }

    /// Requests received and not yet finished (answered, or ended by the client or a
    /// timeout), over both protocols. A request stops counting as soon as its client goes
    /// away, even while its detection still waits in the queue or runs, so the server's work
    /// can end a moment after this reads zero.
    public var openRequests: Int { core.openExchanges }

    /// Detection jobs waiting for a worker, and running: a request whose client left stops
    /// being open at once, while its job may wait in the queue until a worker takes and drops it.
    var detectionJobs: (waiting: Int, running: Int) { core.pipeline.depth }

    /// Shows the SHA-256 digests (hex) of model `name`'s cfg and weights on the status page
    /// (`GET /`), which says "computing" until they are recorded: hashing large weights is left
    /// to the caller, off the start path.
    public func recordChecksums(model name: String, cfg: String, weights: String) {
        core.recordChecksums(model: name, cfg: cfg, weights: weights)
    }

    /// `GET /metrics`'s text now.
    public var metricsText: String {
        String(decoding: core.metricsResponse(connections: http.connectionCount, cutOff: http.cutOffCount).body, as: UTF8.self)
    }

    private static func validate(models: [ServedModel], configuration c: ServerConfiguration) throws(ServeStartError) {
        guard !models.isEmpty else { throw .models("no model to serve") }
        var seen: Set<String> = []
        for model in models {
            guard ServedModel.isValidName(model.name) else {
                throw .models("model name '\(model.name)': use letters, digits, '-', '_' and '.' (at most 64), not 'list'")
            }
            guard seen.insert(model.name).inserted else { throw .models("two models are called '\(model.name)'") }
        }
        func check(_ ok: Bool, _ message: String) throws(ServeStartError) {
            if !ok { throw .configuration(message) }
        }
        try check((0...65_535).contains(c.port), "port \(c.port) is not in 0...65535")
        try check(c.workers >= 1, "workers must be at least 1")
        try check(c.queueCapacity >= 0, "the queue capacity cannot be negative")
        try check(c.maxUploadBytes >= 1, "the upload limit must be at least 1 byte")
        try check(c.maxPixels >= 1, "the pixel limit must be at least 1")
        try check(c.connectionLimit >= 1, "the connection limit must be at least 1")
        try check(c.connectionMemoryLimit >= 4096, "each connection needs at least 4096 bytes of memory")
        try check(c.idleTimeout >= .seconds(1), "the idle timeout must be at least 1 second")
        try check(c.requestTimeout > .zero && c.drainTimeout >= .zero, "the request and drain timeouts must be positive")
        try check((0...1).contains(c.detection.threshold), "the confidence threshold must be in 0...1")
    }

    private static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
