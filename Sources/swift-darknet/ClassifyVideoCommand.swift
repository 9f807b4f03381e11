import CommandLineKit
import Darknet
import DarknetImage
import DarknetVideo
import Foundation

/// `swift-darknet classify-video`: the top classes of a Darknet classifier for every (or the
/// latest) frame of a video file, image sequence, network stream or camera, as Darknet's
/// `classifier demo` shows them.
struct ClassifyVideoCommand: Command {
    static let name = "classify-video"
    static let abstract = "classify the frames of a video file, image sequence, stream or camera"
    static let operands = "INPUT"
    static let description = """
        INPUT: anything FFmpeg opens, as for video: a file, frames/%04d.png, a URL or a camera
        (/dev/video0, or --camera 0). Each frame is letterboxed as Darknet's classifier demo does.
        default output: "frame N at T s: label: NN.NN%, ..." per classified frame
        At the end: frames read, classified (processed), dropped, fps, latency p50/p95 (stderr).
        """
    static let optionGroups = [
        ModelOptions.options([LabelFiles.option]),
        VideoInputFlags.inputOptions,
        VideoInputFlags.frameOptions,
        OptionGroup("classification", ClassifierFlags.classificationOptions),
        OptionGroup("output", [
            .flag("json", #"one line per classified frame: {"frame", "time", "predictions": [{"class", "label", "prob"}]}"#),
            .value("out", "annotated.mp4|frame%04d.png", """
                the classified frames with their classes drawn at the top left, as Darknet's demo
                shows them: a video (H.264 MP4, or MJPEG AVI without an H.264 encoder), or numbered
                PNG/JPEG images for a path with %d
                """),
        ]),
        PlanFlags.options,
    ]

    let classifierFlags: ClassifierFlags
    let source: VideoInputFlags
    let json: Bool
    let out: String?

    init(arguments: inout Arguments) throws {
        classifierFlags = try ClassifierFlags(arguments: &arguments)
        json = arguments.flag("json")
        out = arguments.string("out")
        source = try VideoInputFlags(arguments: &arguments)
    }

    func run() throws -> Int32 {
        let files = try classifierFlags.model.resolve()
        let options = try classifierFlags.options()
        let reader = try source.openReader()
        let classifier = try classifierFlags.loadClassifier(files)
        let output = try out.map { try AnnotatedOutput(path: $0, reader: reader) }
        let pipeline = ClassificationPipeline(classifier: classifier, policy: source.policy(for: reader), options: options)
        // --out draws each result on its frame: the latest 120 frames are kept for it.
        let feeder = FrameFeeder(reader: reader, pipeline: pipeline,
                                 options: VideoFeed.Options(duration: source.duration, keptFrames: output != nil ? 120 : 0))
        let run = VideoRun(feed: feeder, output: output, json: json,
                           progress: VideoProgressLine(enabled: isatty(2) != 0 && !reader.kind.isLive),
                           total: reader.estimatedFrameCount)
        let interrupt = VideoCommand.onInterrupt { feeder.stop() }
        defer { interrupt.cancel() }
        feeder.start()
        var failure = run.consume(pipeline.results)
        if failure == nil, let error = feeder.error { failure = error }
        return source.conclude(reader, output: output, statistics: run.statistics, read: feeder.framesRead,
                               skipped: feeder.framesSkipped, failure: failure)
    }
}
