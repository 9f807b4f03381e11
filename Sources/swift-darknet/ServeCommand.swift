import BatchDetection
import CommandLineKit
import Darknet
import DarknetServe
import Foundation

/// `swift-darknet serve`: a detection service for clients that already exist: the DeepStack /
/// CodeProject.AI HTTP API (Blue Iris, Agent DVR, Home Assistant, Frigate's `deepstack`
/// detector) and Frigate's ZMQ detector protocol.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "serve detections over the DeepStack / CodeProject.AI HTTP API and Frigate's ZMQ protocol"
    static let usage = """
        --cfg FILE|URL --weights FILE|URL [--names FILE|URL | --data FILE] [--name NAME]
                     [--port 5000] [--bind 127.0.0.1] [--zmq ipc:///tmp/cache/zmq_detector|tcp://HOST:PORT]
                     [--model NAME=CFG,WEIGHTS,NAMES ...] [--thresh 0.4] [--hier 0.5] [--nms 0.45] [--stretch]
                     [--workers N] [--threads 1] [--queue 16] [--max-upload MIB] [--max-pixels N]
                     [--connections 128] [--connections-per-client 0] [--idle-timeout 10] [--request-timeout 30]
                     [--drain-timeout 30] [--api-key KEY] [--zmq-pixel-format rgb|bgr] [--zmq-float-range 1|255]
                     [--log-level debug|info|warning|error|none] [--strict] [--memory-limit MIB]
                     [--precision int8 (--calibrate DIR | --calibration FILE) [--float-layers ...]]
          POST /v1/vision/detection (multipart: image, min_confidence, api_key), /v1/vision/custom/NAME,
          /v1/vision/custom/list; GET /health, GET /metrics (Prometheus). SIGTERM or SIGINT: stop taking
          requests, finish those in progress (up to --drain-timeout), exit 0.
          --name     the model's name in /v1/vision/custom/NAME and the metrics (default: the cfg's file name)
          --model    another model, served at /v1/vision/custom/NAME (float32; repeat the option for more)
          --bind     the address to listen on (0.0.0.0 or :: for every interface; default loopback only)
          --port     the HTTP port (0: a free one, printed at start)
          --zmq      also answer Frigate's ZMQ detector (REQ/REP: a JSON header and a tensor) on this endpoint
          --thresh   the default min_confidence (DeepStack's 0.4) and the ZMQ threshold; --hier, --nms as detect
          --stretch  resize without keeping the aspect ratio (Darknet letterboxes)
          --workers  requests processed at once (default: cores / --threads); each has a session of its own
          --threads  threads for each forward pass (results do not depend on it)
          --queue    requests that may wait for a worker; more get 503 with Retry-After (ZMQ: an error reply)
          --max-upload  MiB a request body or tensor may have (default 16; larger: 413)
          --max-pixels  largest width x height of an image or tensor (default 50000000)
          --connections / --connections-per-client  open HTTP connections at most (0: no per-client cap)
          --idle-timeout  seconds a connection may be silent; --request-timeout: seconds to deliver a request
                     whole and at most to wait for a worker; --drain-timeout: seconds SIGTERM waits
          --api-key  require this api_key in detection forms (else 401)
          --zmq-pixel-format  channel order of ZMQ tensors (Frigate's input_pixel_format; default rgb)
          --zmq-float-range   float32 tensors' range: 1 (Frigate's input_dtype float) or 255 (float_denorm)
          --log-level  one line per request: info (answered), warning (4xx, 503), error; health checks
                     and scrapes at debug (default info)
        \(PlanFlags.help)
        \(PrecisionFlags.help)
        """ + "\n" + ModelOptions.usage
    static let flagNames: Set<String> = Set(["stretch"]).union(PlanFlags.flagNames).union(ModelOptions.flagNames)

    let model: ModelOptions
    let labelFiles: LabelFiles
    let plan: PlanFlags
    let precision: PrecisionFlags
    let name: String?
    let extraModels: [ExtraModel]
    let threads: Int
    let configuration: ServerConfiguration

    init(arguments: inout Arguments) throws {
        model = try ModelOptions(arguments: &arguments)
        labelFiles = try LabelFiles(arguments: &arguments, names: model.names)
        plan = try PlanFlags(arguments: &arguments)
        precision = try PrecisionFlags(arguments: &arguments)
        name = arguments.string("name")
        extraModels = try arguments.strings("model").map(ExtraModel.init(option:))
        threads = try arguments.int("threads", default: 1, range: 1...256)
        var c = ServerConfiguration()
        c.host = arguments.string("bind") ?? "127.0.0.1"
        c.port = try arguments.int("port", default: 5000, range: 0...65_535)
        c.zmqEndpoint = arguments.string("zmq")
        c.detection = DetectionOptions(
            threshold: try arguments.float("thresh", default: 0.4, range: 0...1),
            hierThreshold: try arguments.float("hier", default: 0.5, range: 0...1),
            nmsThreshold: try arguments.float("nms", default: 0.45, range: 0...1),
            letterbox: !arguments.flag("stretch"))
        c.workers = try arguments.int("workers", default: max(1, ProcessInfo.processInfo.activeProcessorCount / threads), range: 1...256)
        c.queueCapacity = try arguments.int("queue", default: 16, range: 0...100_000)
        c.maxUploadBytes = try arguments.int("max-upload", default: 16, range: 1...4096) << 20
        c.maxPixels = try arguments.int("max-pixels", default: 50_000_000, range: 1...1_000_000_000)
        c.connectionLimit = try arguments.int("connections", default: 128, range: 1...65_536)
        c.perClientConnectionLimit = try arguments.int("connections-per-client", default: 0, range: 0...65_536)
        c.idleTimeout = .seconds(try arguments.int("idle-timeout", default: 10, range: 1...86_400))
        c.requestTimeout = .milliseconds(Int(1000 * (try arguments.float("request-timeout", default: 30, range: 0.1...86_400))))
        c.drainTimeout = .milliseconds(Int(1000 * (try arguments.float("drain-timeout", default: 30, range: 0...86_400))))
        c.apiKey = arguments.string("api-key")
        let pixelFormat = arguments.string("zmq-pixel-format") ?? "rgb"
        guard let order = TensorChannelOrder(rawValue: pixelFormat) else {
            throw CLIError("--zmq-pixel-format must be rgb or bgr, got '\(pixelFormat)'")
        }
        c.tensorChannelOrder = order
        let floatRange = arguments.string("zmq-float-range") ?? "1"
        guard let range = TensorFloatRange(rawValue: floatRange) else {
            throw CLIError("--zmq-float-range must be 1 or 255, got '\(floatRange)'")
        }
        c.tensorFloatRange = range
        let levelName = arguments.string("log-level") ?? "info"
        guard let level = LogLevel(name: levelName) else {
            throw CLIError("--log-level must be one of \(LogLevel.allCases.map(\.name).joined(separator: ", ")), got '\(levelName)'")
        }
        c.log = ServerLog(level: level)
        configuration = c
        if !arguments.positionals.isEmpty {
            throw CLIError("serve takes no positional arguments, got '\(arguments.positionals[0])'")
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
        let signal = signals.wait()
        configuration.log.write(.info, "\(signal): finishing the requests in progress")
        let finished = signals.whileWaitingForASecondSignal { server.shutdown() }
        return finished ? 0 : 1
    }
}
