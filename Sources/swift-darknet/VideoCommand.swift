import BatchDetection
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
        OptionGroup("input", [
            .value("camera", "N", "camera N (/dev/videoN, V4L2) instead of INPUT, as Darknet's demo -c N"),
            .value("input-format", "NAME", "read INPUT with this FFmpeg input (ffmpeg -f NAME): v4l2, lavfi, x11grab..."),
            .value("input-option", "KEY=VALUE", """
                an option of that input, as ffmpeg takes it before -i (repeatable): a camera's
                video_size=1280x720, framerate=30, input_format=mjpeg
                """),
        ]),
        OptionGroup("frames", [
            .flag("every", "process every frame, the decoder waits (default for files and sequences)"),
            .flag("live", "process the newest frame, drop the others (default for network URLs and cameras)"),
            .value("stride", "N", default: "1", "only every Nth frame (by decode index) is a candidate"),
            .value("duration", "SECONDS", "stop after that much stream time"),
            .value("input-timeout", "SECONDS", default: "10", "to wait for an input that sends nothing"),
            .flag("no-autorotate", """
                frames as stored: without it, a video whose display matrix says to turn it (a
                phone's portrait video) is read upright, as ffmpeg shows it
                """),
        ]),
        OptionGroup("detection", detectionFlags.options + [
            .value("max-det", "N", default: "0", "at most N detections a frame, the most confident (0: all)"),
            .value("classes", "0,16|dog,cat", "only these classes (indices or labels)"),
            .flag("track", #"give each detection a track ID ("track" in --json), kept across frames"#),
            .value("smooth", "N", default: "0", "report each track's box averaged over its last N detections (implies --track)"),
            .value("threads", "N", default: "1",
                   "threads for each forward pass (results do not depend on it); with --tiles, tiles run at once"),
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
    let input: String
    /// `--input-timeout`, `--no-autorotate`, `--input-format` and `--input-option`.
    let readerOptions: VideoReaderOptions
    let options: DetectionOptions
    let classNames: [String]
    let json: Bool
    let live: Bool?
    let stride: Int
    let duration: Double?
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
        let live = arguments.flag("live"), every = arguments.flag("every")
        guard !(live && every) else { throw CLIError("--live and --every exclude each other") }
        self.live = live ? true : every ? false : nil
        stride = try arguments.int("stride", range: 1...1_000_000)
        duration = try arguments.string("duration").map { text in
            guard let seconds = Double(text), seconds > 0 else { throw CLIError("--duration must be a positive number of seconds, got '\(text)'") }
            return seconds
        }
        readerOptions = VideoReaderOptions(timeout: Double(try arguments.float("input-timeout", range: 0.1...3600)),
                                           autorotate: !arguments.flag("no-autorotate"),
                                           inputFormat: arguments.string("input-format"),
                                           inputOptions: try arguments.keyValues("input-option", example: "video_size=1280x720"))
        threads = try arguments.int("threads", range: 1...256)
        out = arguments.string("out")
        let smooth = try arguments.int("smooth", range: 0...10_000)
        let track = arguments.flag("track")
        tracking = track || smooth > 0
            ? TrackerOptions(smoothing: smooth > 1 ? .movingAverage(frames: smooth) : .none) : nil
        let camera: Int? = arguments.string("camera") == nil ? nil : try arguments.int("camera", default: 0, range: 0...255)
        switch (camera, arguments.positionals.count) {
        case (let index?, 0): input = VideoSourceKind.cameraPath(index)
        case (nil, 1): input = arguments.positionals[0]
        case (nil, 0): throw CLIError("no video input given: a file, a URL or --camera N (Darknet's demo without a file reads camera 0)")
        case (_?, _): throw CLIError("--camera and INPUT exclude each other")
        default: throw CLIError("one video input at a time")
        }
    }

    func run() throws -> Int32 {
        let files = try detectorFlags.model.resolve()
        // The input before the network: a bad file or URL fails before the weights load.
        let reader = try VideoReader(source: input, options: readerOptions)
        if reader.kind == .device {
            // What the device agreed to, which its --input-option values may not have asked for.
            let rate = reader.frameRate.map { String(format: " at %g fps", $0) } ?? ""
            let opened = "\(reader.width)x\(reader.height) \(reader.codecName) (\(reader.pixelFormatName))\(rate)"
            FileHandle.standardError.write(Data("swift-darknet: \(input): \(opened)\n".utf8))
        }
        let detector = try detectorFlags.loadDetector(files, threads: threads)
        let network = detector.network
        var options = options
        if !classNames.isEmpty { options.classes = try Self.classIndices(classNames, labels: detector.labels) }
        let mode: FramePolicy.Mode = (live ?? reader.kind.isLive) ? .latest : .every
        let pipeline = DetectionPipeline(detector: detector, policy: FramePolicy(mode: mode, stride: stride), options: options,
                                         tracking: tracking)
        let output = try out.map { try AnnotatedOutput(path: $0, reader: reader, classCount: DetectionDecoder.classCount(of: network.plan)) }
        // --out draws each result on its frame: the latest 120 frames are kept for it (a
        // --live run drops most of them unseen).
        let feed = VideoFeed(reader: reader, pipeline: pipeline,
                             options: VideoFeed.Options(duration: duration.map { .rounded(seconds: $0) },
                                                        keptFrames: output != nil ? 120 : 0))
        let run = VideoRun(feed: feed, output: output, json: json,
                           progress: VideoProgressLine(enabled: isatty(2) != 0 && !reader.kind.isLive),
                           total: reader.estimatedFrameCount)
        let interrupt = Self.onInterrupt { feed.stop() }
        defer { interrupt.cancel() }
        feed.start()
        var failure = run.consume(pipeline.results)
        if failure == nil, let error = feed.error { failure = error }
        do {
            try output?.finish()
        } catch {
            if failure == nil { failure = error }
        }
        let summary = run.statistics.summary(read: feed.framesRead, skipped: feed.framesSkipped)
        FileHandle.standardError.write(Data("swift-darknet: \(summary)\n".utf8))
        if reader.damagedPackets > 0 && reader.kind.isLive {
            warn("\(input): \(reader.damagedPackets) damaged packets skipped")
        }
        if let failure {
            FileHandle.standardError.write(Data("swift-darknet: \(failure)\n".utf8))
            return 1
        }
        return 0
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
