import CommandLineKit
import Darknet
import DarknetModels
import DarknetServe
import Foundation

/// `swift-darknet serve`: a detection service for clients that already exist: the DeepStack /
/// CodeProject.AI HTTP API (Blue Iris, Agent DVR, Home Assistant, Frigate's `deepstack`
/// detector) and Frigate's ZMQ detector protocol.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "serve detections over the DeepStack / CodeProject.AI HTTP API and Frigate's ZMQ protocol"
    static let description = """
        POST /v1/vision/detection (multipart: image, min_confidence, api_key), /v1/vision/custom/NAME,
        /v1/vision/custom/list; GET / (a status page with a form to try a photo), /health, /v2/health/live, /v2/health/ready, /v1/server/status/ping,
        /metrics (Prometheus). SIGTERM or SIGINT: answer new requests at once (503, liveness 200), finish
        those in progress (up to --drain-timeout), exit 0.
        """
    private static let defaults = ServerConfiguration()
    static let detectionFlags = DetectionFlags(threshold: (
        default: String(defaults.detection.threshold),
        help: "the default min_confidence (DeepStack's) and the ZMQ threshold"))
    static let optionGroups = [
        ModelOptions.options([
            LabelFiles.option,
            .value("name", "NAME", "the model's name in /v1/vision/custom/NAME and the metrics (default: the cfg's file name)"),
            .value("model", "NAME=CFG,WEIGHTS,NAMES", "another model, served at /v1/vision/custom/NAME (float32; repeat for more)"),
        ]),
        OptionGroup("listening", [
            .value("bind", "ADDRESS", default: defaults.host, "the address to listen on (0.0.0.0 or :: for every interface)"),
            .value("port", "PORT", default: String(defaults.port), "the HTTP port (0: a free one, printed at start)"),
            .value("zmq", "ipc://PATH|tcp://HOST:PORT",
                   "also answer Frigate's ZMQ detector (REQ/REP: a JSON header and a tensor) on this endpoint"),
            .value("zmq-models", "DIR", default: "~/.cache/swift-darknet/frigate-models", """
                where models Frigate's ZMQ detector transfers (model_data) are saved and found
                again: a .tar of .cfg, .weights and .names, or a .weights for --cfg
                """),
            .value("api-key", "KEY", "require this api_key in detection forms (else 401)"),
        ]),
        OptionGroup("detection", detectionFlags.options + [
            .value("zmq-pixel-format", "rgb|bgr", default: defaults.tensorChannelOrder.rawValue,
                   "channel order of ZMQ tensors (Frigate's input_pixel_format)"),
            .value("zmq-float-range", "1|255", default: defaults.tensorFloatRange.rawValue,
                   "float32 tensors' range: 1 (Frigate's input_dtype float) or 255 (float_denorm)"),
        ]),
        OptionGroup("work and limits", [
            .value("workers", "N", "requests processed at once, each with a session of its own;\n"
                   + "default: the cores this process may use (\(AvailableCores.count) here) divided by --threads"),
            .value("threads", "N", "threads for each forward pass (results do not depend on it); default: 1,\n"
                   + "or with --workers the cores this process may use (\(AvailableCores.count) here) divided by the workers"),
            .value("queue", "N", default: String(defaults.queueCapacity),
                   "requests that may wait for a worker; more get 503 with Retry-After (ZMQ: an error reply)"),
            .value("max-upload", "MIB", default: String(defaults.maxUploadBytes >> 20), "a request body or tensor may have (larger: 413)"),
            .value("max-pixels", "N", default: String(defaults.maxPixels), "largest width x height of an image or tensor"),
            .value("connections", "N", default: String(defaults.connectionLimit), "open HTTP connections at most"),
            .value("connections-per-client", "N", default: String(defaults.perClientConnectionLimit),
                   "open HTTP connections per client at most (0: no cap)"),
            .value("idle-timeout", "SECONDS", default: String(defaults.idleTimeout.components.seconds),
                   "a connection may be silent"),
            .value("request-timeout", "SECONDS", default: String(defaults.requestTimeout.components.seconds),
                   "to deliver a request whole, and at most to wait for a worker"),
            .value("drain-timeout", "SECONDS", default: String(defaults.drainTimeout.components.seconds),
                   "SIGTERM waits for the requests in progress"),
            .value("log-level", "LEVEL", default: defaults.log.level.name, """
                debug|info|warning|error|none: one line per request: info (answered), warning (4xx,
                503), error; health checks and scrapes at debug
                """),
        ]),
        PlanFlags.options,
        PrecisionFlags.options,
    ]

    let detectorFlags: DetectorFlags
    let name: String?
    let extraModels: [ExtraModel]
    let threads: Int
    let configuration: ServerConfiguration

    init(arguments: inout Arguments) throws {
        detectorFlags = try DetectorFlags(arguments: &arguments)
        name = arguments.string("name")
        extraModels = try arguments.strings("model").map(ExtraModel.init(option:))
        // The cores are split over the workers: one thread each unless --workers leaves cores over.
        if let workers = arguments.string("workers") {
            threads = try ThreadsFlag.read(&arguments, sharing: Int(workers) ?? 1)  // a bad count is --workers' error below
        } else {
            threads = try arguments.int("threads", default: 1, range: 1...256)
        }
        var c = ServerConfiguration()
        c.host = arguments.stringOrDefault("bind") ?? c.host
        c.port = try arguments.int("port", range: 0...65_535)
        c.zmqEndpoint = arguments.string("zmq")
        c.zmqModelDirectory = arguments.string("zmq-models").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? ModelOptions.defaultCache.appendingPathComponent("frigate-models", isDirectory: true)
        c.detection = try Self.detectionFlags.read(&arguments)
        c.workers = try arguments.int("workers", default: max(1, AvailableCores.count / threads), range: 1...256)
        c.queueCapacity = try arguments.int("queue", range: 0...100_000)
        c.maxUploadBytes = try arguments.int("max-upload", range: 1...4096) << 20
        c.maxPixels = try arguments.int("max-pixels", range: 1...1_000_000_000)
        c.connectionLimit = try arguments.int("connections", range: 1...65_536)
        c.perClientConnectionLimit = try arguments.int("connections-per-client", range: 0...65_536)
        c.idleTimeout = .seconds(try arguments.int("idle-timeout", range: 1...86_400))
        c.requestTimeout = .milliseconds(Int(1000 * (try arguments.float("request-timeout", range: 0.1...86_400))))
        c.drainTimeout = .milliseconds(Int(1000 * (try arguments.float("drain-timeout", range: 0...86_400))))
        c.apiKey = arguments.string("api-key")
        let pixelFormat = arguments.stringOrDefault("zmq-pixel-format") ?? ""
        guard let order = TensorChannelOrder(rawValue: pixelFormat) else {
            throw CLIError("--zmq-pixel-format must be rgb or bgr, got '\(pixelFormat)'")
        }
        c.tensorChannelOrder = order
        let floatRange = arguments.stringOrDefault("zmq-float-range") ?? ""
        guard let range = TensorFloatRange(rawValue: floatRange) else {
            throw CLIError("--zmq-float-range must be 1 or 255, got '\(floatRange)'")
        }
        c.tensorFloatRange = range
        let levelName = arguments.stringOrDefault("log-level") ?? ""
        guard let level = LogLevel(name: levelName) else {
            throw CLIError("--log-level must be one of \(LogLevel.allCases.map(\.name).joined(separator: ", ")), got '\(levelName)'")
        }
        c.log = ServerLog(level: level)
        configuration = c
        if !arguments.positionals.isEmpty {
            throw CLIError("serve takes no positional arguments, got '\(arguments.positionals[0])'")
        }
    }

    /// Hashes each model's cfg and weights on a background thread for the status page (large
    /// weights take a while; the server answers meanwhile). A file that cannot be read is noted
    /// as such.
    private static func recordChecksums(of models: [ServedModel], on server: DetectionServer) {
        Thread.detachNewThread {
            for model in models {
                guard let files = model.files else { continue }
                let digest = { (url: URL) in (try? ModelChecksum.hex(contentsOf: url)) ?? "unreadable" }
                server.recordChecksums(model: model.name, cfg: digest(files.cfg), weights: digest(files.weights))
            }
        }
    }

    func run() throws -> Int32 {
        // Every thread started from here on inherits the mask: the signals are taken by
        // `ShutdownSignals.wait()` alone, never by a worker in the middle of a request.
        let signals = ShutdownSignals()
        // A client or log reader that goes away must not end the server (sockets already send
        // with MSG_NOSIGNAL; standard error and output may be pipes).
        signal(SIGPIPE, SIG_IGN)
        let models = try loadModels()
        let server = try DetectionServer(models: models, configuration: configuration)
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let ready = "swift-darknet serve: http://\(host):\(server.port)" + (server.zmqEndpoint.map { " zmq \($0)" } ?? "")
        FileHandle.standardOutput.write(Data((ready + "\n").utf8))
        Self.recordChecksums(of: models, on: server)
        let signal = signals.wait()
        configuration.log.write(.info, "\(signal): finishing the requests in progress")
        let finished = signals.whileWaitingForASecondSignal { server.shutdown() }
        return finished ? 0 : 1
    }
}
