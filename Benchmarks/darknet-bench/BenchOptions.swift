import CommandLineKit
import Darknet
import Foundation

/// What to benchmark and how.
struct BenchOptions {
    /// The workload: one network's forward pass, or one of the modes that exclude each other.
    enum Mode: Equatable {
        /// Forward passes on one input (the default).
        case forward
        /// `--serve`: answer `forward` lines on standard input instead of measuring (`Bench.serve`).
        case serve
        /// `--batch DIR`: images per second over a folder of images (`BatchBench`).
        case batch(folder: String)
        /// `--live FPS`: a synthetic camera at that frame rate (`LiveBench`).
        case live(fps: Double)
        /// `--video FILE`: decode and end-to-end throughput on a video (`VideoBench`).
        case video(source: String)
    }

    let cfg: URL
    let weights: URL?
    let seed: UInt64
    let size: Int?
    let threads: Int
    let runs: Int
    let warmup: Int
    let image: URL?
    let json: Bool
    let layerProfile: Bool
    /// What the run measures.
    let mode: Mode
    /// Frames the synthetic camera produces, or the video frames read.
    let frames: Int
    /// `--policy`: which frames the live or video pipeline processes (nil: the mode's default).
    let policy: FramePolicy?
    /// `--contend`: a busy loop pinned to one CPU for the whole measurement (see `Contention`).
    let contend: Bool
    /// `--fixed-threads`: every pass on all `threads`, without the session's `ThreadPolicy`.
    let fixedThreads: Bool
    /// `--precision`, `--calibrate`, `--calibration`, `--save-calibration` (as swift-darknet's).
    let precision: PrecisionFlags
    /// `--memory-limit MIB` in bytes: what the network may plan (as swift-darknet's).
    let memoryLimit: Int
    /// `--input-format NAME` and `--input-option KEY=VALUE` for `--video` (as swift-darknet video's).
    let inputFormat: String?
    let inputOptions: [String: String]

    init(arguments: inout Arguments) throws {
        cfg = URL(fileURLWithPath: try arguments.required("cfg"))
        let random = arguments.flag("random")
        let weightsPath = arguments.string("weights")
        guard random != (weightsPath != nil) else { throw CLIError("give exactly one of --weights FILE and --random") }
        weights = weightsPath.map { URL(fileURLWithPath: $0) }
        seed = UInt64(try arguments.int("seed", default: 1, range: 0...Int(Int32.max)))
        let size = try arguments.int("size", default: 0, range: 0...8192)
        self.size = size == 0 ? nil : size
        threads = try arguments.int("threads", default: min(256, AvailableCores.count), range: 1...256)
        runs = try arguments.int("runs", default: 20, range: 1...100_000)
        warmup = try arguments.int("warmup", default: 3, range: 0...1000)
        image = arguments.string("image").map { URL(fileURLWithPath: $0) }
        json = arguments.flag("json")
        layerProfile = !arguments.flag("no-layers")
        var modes: [(flag: String, mode: Mode)] = []
        if arguments.flag("serve") { modes.append(("--serve", .serve)) }
        if let folder = arguments.string("batch") { modes.append(("--batch", .batch(folder: folder))) }
        if let text = arguments.string("live") {
            guard let fps = Double(text), fps > 0, fps <= 1000 else { throw CLIError("--live must be a frame rate in (0, 1000], got '\(text)'") }
            modes.append(("--live", .live(fps: fps)))
        }
        if let source = arguments.string("video") { modes.append(("--video", .video(source: source))) }
        guard modes.count <= 1 else {
            throw CLIError(modes.map(\.flag).joined(separator: " and ") + " exclude each other")
        }
        mode = modes.first?.mode ?? .forward
        frames = try arguments.int("frames", default: 300, range: 1...1_000_000)
        policy = try arguments.string("policy").map(Self.policy)
        contend = arguments.flag("contend")
        fixedThreads = arguments.flag("fixed-threads")
        precision = try PrecisionFlags(arguments: &arguments)
        memoryLimit = try arguments.int("memory-limit", default: PlanOptions().memoryLimit >> 20, range: 1...(1 << 30)) << 20
        inputFormat = arguments.string("input-format")
        inputOptions = try arguments.keyValues("input-option", example: "video_size=1280x720")
    }

    /// The cfg, resized to `--size`.
    func spec() throws -> NetworkSpec {
        var spec = try NetworkSpec.parse(bytes: try readBytes(cfg), file: cfg.path)
        if let size { spec = spec.resized(width: size, height: size) }
        return spec
    }

    /// The plan options `--precision` asks for: for int8, the calibration read, or measured on
    /// the float network (`spec` with `--weights` or `--random` ones).
    func planOptions(_ spec: NetworkSpec) throws -> PlanOptions {
        let float = PlanOptions(memoryLimit: memoryLimit)
        return try precision.options(float, spec: spec, float: { try network(spec, options: float) }, threads: threads) {
            FileHandle.standardError.write(Data("darknet-bench: \($0)\n".utf8))
        }
    }

    /// `spec` with `--weights` or seeded random weights, planned with `options`.
    func network(_ spec: NetworkSpec, options: PlanOptions) throws -> Network {
        if let weights { return try Network(spec: spec, weights: weights, options: options) }
        return try Network(spec: spec, randomSeed: seed, options: options)
    }

    /// `float32`, `bf16`, `fp16` or `int8`, for reports.
    var precisionName: String { precision.name }

    /// A session as the options ask for: with the thread policy unless `--fixed-threads`; it
    /// keeps the detection heads, or for a network without one its classifier output.
    func session(_ network: Network) -> InferenceSession {
        let retained: LayerSelection = network.plan.classifierOutput.map { .layers([$0]) } ?? .detection
        return fixedThreads ? InferenceSession(network: network, retaining: retained, split: ThreadSplit(threads: threads))
            : InferenceSession(network: network, retaining: retained, threads: threads)
    }

    /// `latest`, `every` or `stride:N`.
    static func policy(_ text: String) throws -> FramePolicy {
        switch text {
        case "latest": return .latest
        case "every": return .every
        default:
            guard text.hasPrefix("stride:"), let n = Int(text.dropFirst("stride:".count)), n >= 1 else {
                throw CLIError("--policy must be latest, every or stride:N, got '\(text)'")
            }
            return .stride(n)
        }
    }
}
