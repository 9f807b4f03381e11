import CommandLineKit
import Darknet
import DarknetImage
import DarknetVideo
import Foundation

/// `swift-darknet video`: detections on every (or the latest) frame of a video file, image
/// sequence, network stream or camera.
struct VideoCommand: Command {
    static let name = "video"
    static let abstract = "detect objects in a video file, image sequence, stream or camera"
    static let operands = "INPUT"
    static let description = """
        INPUT: anything FFmpeg opens: a file (MP4, MKV, AVI...), frames/%04d.png, a URL
        (rtsp://, http://, udp://, tcp://) or a camera (/dev/video0, or --camera 0)
        At the end: frames read, processed, dropped, processed fps, latency p50/p95 (stderr).
        """
    static let detectionFlags = DetectionFlags(offersStretch: false)
    static let optionGroups = [
        ModelOptions.options([LabelFiles.option]),
        VideoInputFlags.inputOptions,
        VideoInputFlags.frameOptions,
        OptionGroup("detection", detectionFlags.options + [
            .value("max-det", "N", default: "0", "at most N detections a frame, the most confident (0: all)"),
            .value("classes", "0,16|dog,cat", "only these classes (indices or labels)"),
            .flag("track", #"give each detection a track ID ("track" in --json), kept across frames"#),
            .value("smooth", "N", default: "0", "report each track's box averaged over its last N detections (implies --track)"),
            ThreadsFlag.option("threads for each forward pass (results do not depend on it); with --tiles, tiles run at once"),
        ]),
        OptionGroup("output", [
            .flag("json", #"one line per processed frame: {"frame", "time", "detections": [...]}"#),
            .value("out", "annotated.mp4|frame%04d.png", """
                annotated video (H.264 MP4, or MJPEG AVI without an H.264 encoder), or numbered
                PNG/JPEG images for a path with %d
                """),
        ]),
        TilingFlags.options,
        PlanFlags.options,
        PrecisionFlags.options,
    ]

    let detectorFlags: DetectorFlags
    let source: VideoInputFlags
    let options: DetectionOptions
    let classNames: [String]
    let json: Bool
    let threads: Int
    let out: String?
    let tracking: TrackerOptions?

    init(arguments: inout Arguments) throws {
        detectorFlags = try DetectorFlags(arguments: &arguments)
        let maximum = try arguments.int("max-det", range: 0...100_000)
        var options = try Self.detectionFlags.read(&arguments)
        options.maximumDetections = maximum > 0 ? maximum : nil
        options.tiling = try TilingFlags(arguments: &arguments).tiling
        self.options = options
        classNames = arguments.string("classes").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        json = arguments.flag("json")
        threads = try ThreadsFlag.read(&arguments)
        out = arguments.string("out")
        let smooth = try arguments.int("smooth", range: 0...10_000)
        let track = arguments.flag("track")
        tracking = track || smooth > 0
            ? TrackerOptions(smoothing: smooth > 1 ? .movingAverage(frames: smooth) : .none) : nil
        source = try VideoInputFlags(arguments: &arguments)
    }

    func run() throws -> Int32 {
        let files = try detectorFlags.model.resolve()
        let reader = try source.openReader()
        let detector = try detectorFlags.loadDetector(files, threads: threads)
        let network = detector.network
        var options = options
        if !classNames.isEmpty { options.classes = try Self.classIndices(classNames, labels: detector.labels) }
        let pipeline = DetectionPipeline(detector: detector, policy: source.policy(for: reader), options: options,
                                         tracking: tracking)
        let output = try out.map { try AnnotatedOutput(path: $0, reader: reader, classCount: DetectionDecoder.classCount(of: network.plan)) }
        // --out draws each result on its frame: the latest 120 frames are kept for it (a
        // --live run drops most of them unseen).
        let feed = VideoFeed(reader: reader, pipeline: pipeline,
                             options: VideoFeed.Options(duration: source.duration,
                                                        keptFrames: output != nil ? 120 : 0))
        let run = VideoRun(feed: feed, output: output, json: json,
                           progress: VideoProgressLine(enabled: isatty(2) != 0 && !reader.kind.isLive),
                           total: reader.estimatedFrameCount)
        let interrupt = Self.onInterrupt { feed.stop() }
        defer { interrupt.cancel() }
        feed.start()
        var failure = run.consume(pipeline.results)
        if failure == nil, let error = feed.error { failure = error }
        return source.conclude(reader, output: output, statistics: run.statistics, read: feed.framesRead,
                               skipped: feed.framesSkipped, failure: failure)
    }

    /// Class indices for `--classes` items: numbers, or labels from --names.
    static func classIndices(_ items: [String], labels: [String]) throws -> Set<Int> {
        var result = Set<Int>()
        for item in items {
            if let index = Int(item), index >= 0 {
                result.insert(index)
            } else if let index = labels.firstIndex(of: item) {
                result.insert(index)
            } else {
                throw CLIError("--classes: '\(item)' is neither a class index nor a label\(labels.isEmpty ? " (no --names given)" : "")")
            }
        }
        return result
    }

    /// Runs `handler` on the first SIGINT instead of terminating (a second one still kills).
    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            handler()
            signal(SIGINT, SIG_DFL)
        }
        source.resume()
        return source
    }
}
