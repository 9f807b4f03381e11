import Darknet
import Foundation

/// What the HTTP and ZMQ front ends share: the models, the bounded detection pipeline, the
/// detection work, the metrics and the log, and whether the server is draining.
final class ServerCore: @unchecked Sendable {
    let configuration: ServerConfiguration
    /// The models; the first answers `/v1/vision/detection` and ZMQ.
    let models: [ServedModel]
    let service: DetectionService
    let pipeline: RequestPipeline
    let metrics: ServerMetrics
    private let lock = NSLock()
    private var draining = false
    /// Exchanges (HTTP requests with a body or a job, ZMQ requests) not yet finished.
    private var open = 0
    /// SHA-256 of each model's cfg and weights, once computed (`DetectionServer.recordChecksums`).
    private var checksums: [String: (cfg: String, weights: String)] = [:]

    init(models: [ServedModel], configuration: ServerConfiguration) {
        self.configuration = configuration
        self.models = models
        service = DetectionService(maxPixels: configuration.maxPixels, options: configuration.detection,
                                   tensorChannelOrder: configuration.tensorChannelOrder,
                                   tensorFloatRange: configuration.tensorFloatRange)
        pipeline = RequestPipeline(capacity: configuration.queueCapacity, workers: configuration.workers, name: "SwiftDarknet.Serve worker")
        metrics = ServerMetrics(models: models.map { ($0.name, $0.arithmetic, $0.loadSeconds) })
    }

    var isDraining: Bool { lock.withLock { draining } }

    /// From now on detection requests are refused with 503 and `/health` reports draining.
    func startDraining() { lock.withLock { draining = true } }

    /// Counts an exchange in progress (a drain waits for them).
    func exchangeStarted() { lock.withLock { open += 1 } }
    func exchangeEnded() { lock.withLock { open -= 1 } }
    var openExchanges: Int { lock.withLock { open } }

    /// The model `name` names (nil: the first).
    func model(named name: String?) throws(ServeError) -> ServedModel {
        guard let name else { return models[0] }
        guard let model = models.first(where: { $0.name == name }) else {
            throw .unknownModel(name, known: models.map(\.name))
        }
        return model
    }

    /// A DeepStack request's input, on a preparation thread, or the error response when it
    /// expired in the queue or is not an image.
    func prepare(_ request: DetectionRequest, model: ServedModel, waited: Duration) -> Result<DetectionService.PreparedInput, ServeError> {
        if waited > configuration.requestTimeout { return .failure(.expiredInQueue(waited: waited)) }
        return Result { () throws(ServeError) in try service.prepare(request, for: model) }
    }

    /// Detects in a prepared DeepStack request; the response and what to log.
    func answer(_ prepared: DetectionService.PreparedInput, model: ServedModel, arrived: ContinuousClock.Instant,
                waited: Duration) -> (HTTPResponse, inferenceSeconds: Double?, predictions: Int?, error: (any HTTPStatusError)?) {
        do {
            let result = try service.detect(prepared, with: model)
            metrics.recordInference(model: model.name, arithmetic: model.arithmetic, seconds: result.inferenceSeconds, queued: waited.seconds)
            let body = DeepStackDetectionResponse(predictions: result.detections.map(DeepStackPrediction.init),
                                                  inferenceMs: Int((result.inferenceSeconds * 1000).rounded()),
                                                  processMs: Int((arrived.duration(to: .now).seconds * 1000).rounded()))
            return (.json(body), result.inferenceSeconds, result.detections.count, nil)
        } catch {
            return (.error(error), nil, nil, error)
        }
    }

    /// `GET /health`: 200 `{"status": "ok", ...}` while serving, 503 `"draining"` after SIGTERM.
    func healthResponse(connections: Int) -> HTTPResponse {
        let (waiting, running) = pipeline.depth
        let draining = isDraining
        let health = Health(status: draining ? "draining" : "ok", models: models.map(\.name), queueDepth: waiting,
                            queueCapacity: pipeline.capacity, running: running, workers: pipeline.workers, connections: connections)
        var response = HTTPResponse.json(health, status: draining ? 503 : 200)
        if draining { response.headers.append(("Retry-After", "1")) }
        return response
    }

    /// A probe's answer: KServe v2's (an empty body; the status is the answer) or
    /// CodeProject.AI's ping (`{"success": ...}`).
    func probeResponse(_ probe: Probe) -> HTTPResponse {
        let up = probe == .live || !isDraining
        var response: HTTPResponse
        switch probe {
        case .live, .ready: response = HTTPResponse(status: up ? 200 : 503, contentType: "text/plain; charset=utf-8", body: [])
        case .ping: response = .json(Ping(success: up), status: up ? 200 : 503)
        }
        if !up { response.headers.append(("Retry-After", "1")) }
        return response
    }

    /// `GET /metrics`: Prometheus' text format.
    func metricsResponse(connections: Int, cutOff: Int) -> HTTPResponse {
        let (waiting, running) = pipeline.depth
        let text = metrics.prometheusText(counters: [
            ("swiftdarknet_http_connections_cut_total", "HTTP connections cut off for exceeding the request timeout.", Double(cutOff)),
        ], gauges: [
            ("swiftdarknet_queue_depth", "Requests waiting for a worker.", Double(waiting)),
            ("swiftdarknet_queue_capacity", "Requests that may wait before new ones get 503.", Double(pipeline.capacity)),
            ("swiftdarknet_inflight_requests", "Requests being processed by a worker.", Double(running)),
            ("swiftdarknet_open_requests", "Requests received and not yet finished (arriving, queued, running, being sent).", Double(openExchanges)),
            ("swiftdarknet_workers", "Worker threads (requests processed at once).", Double(pipeline.workers)),
            ("swiftdarknet_http_connections", "Open HTTP connections.", Double(connections)),
            ("swiftdarknet_draining", "1 after SIGTERM while in-flight requests finish, else 0.", isDraining ? 1 : 0),
            ("process_resident_memory_bytes", "Resident memory of the server process.", Double(Self.residentBytes())),
            ("process_open_fds", "Open file descriptors of the server process.", Double(Self.openFileDescriptors())),
        ])
        return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
    }

    /// Records the SHA-256 of model `name`'s cfg and weights for the status page.
    func recordChecksums(model name: String, cfg: String, weights: String) {
        lock.withLock { checksums[name] = (cfg, weights) }
    }

    /// `GET /`: the status page.
    func statusPageResponse(connections: Int) -> HTTPResponse {
        let (waiting, running) = pipeline.depth
        let sums = lock.withLock { checksums }
        let page = StatusPage(
            models: models.map { model in
                let shape = model.detector.network.inputShape
                return StatusPage.Model(name: model.name, input: "\(shape.width) × \(shape.height) × \(shape.channels)",
                                        classes: (try? DetectionDecoder.checkedClassCount(of: model.detector.network.plan)) ?? 0,
                                        arithmetic: model.arithmetic, loadSeconds: model.loadSeconds,
                                        cfg: model.files.map { ($0.cfg.path, sums[model.name]?.cfg) },
                                        weights: model.files.map { ($0.weights.path, sums[model.name]?.weights) })
            },
            uptimeSeconds: Date().timeIntervalSince(metrics.startDate), endpoints: metrics.endpointSummaries(),
            queue: StatusPage.Queue(waiting: waiting, capacity: pipeline.capacity, running: running, workers: pipeline.workers,
                                    connections: connections),
            draining: isDraining, apiKeyRequired: configuration.apiKey != nil, defaultConfidence: configuration.detection.threshold)
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(page.html.utf8))
    }

    /// `/v1/vision/custom/list`: every model's name, the default one first (each answers
    /// `/v1/vision/custom/<name>`).
    func modelListResponse() -> HTTPResponse {
        .json(DeepStackModelList(success: true, models: models.map(\.name)))
    }

    func log(_ record: RequestRecord) {
        configuration.log.write(record.level, record.line)
    }

    /// Open file descriptors: the entries of `/proc/self/fd`, less the one listing them (0 where
    /// it does not exist).
    static func openFileDescriptors() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return max(0, entries.count - 1)
    }

    /// Resident memory from `/proc/self/statm` (0 where it does not exist).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The body of `GET /health`.
struct Health: Codable, Equatable, Sendable {
    let status: String
    let models: [String]
    let queueDepth: Int
    let queueCapacity: Int
    let running: Int
    let workers: Int
    let connections: Int

    enum CodingKeys: String, CodingKey {
        case status, models, running, workers, connections
        case queueDepth = "queue_depth", queueCapacity = "queue_capacity"
    }
}

/// The body of CodeProject.AI's `/v1/server/status/ping`.
struct Ping: Codable, Equatable, Sendable {
    let success: Bool
}
