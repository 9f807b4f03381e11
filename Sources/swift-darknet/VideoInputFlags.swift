import CommandLineKit
import Darknet
import DarknetVideo
import Foundation

/// The video input and which of its frames run, the same flags for `video` and
/// `classify-video`: INPUT or `--camera N`, FFmpeg's input format and options, `--every` or
/// `--live`, `--stride`, `--duration`, the input time-out and autorotation.
struct VideoInputFlags {
    static let inputOptions = OptionGroup("input", [
        .value("camera", "N", "camera N (/dev/videoN, V4L2) instead of INPUT, as Darknet's demo -c N"),
        .value("input-format", "NAME", "read INPUT with this FFmpeg input (ffmpeg -f NAME): v4l2, lavfi, x11grab..."),
        .value("input-option", "KEY=VALUE", """
            an option of that input, as ffmpeg takes it before -i (repeatable): a camera's
            video_size=1280x720, framerate=30, input_format=mjpeg
            """),
    ])

    static let frameOptions = OptionGroup("frames", [
        .flag("every", "process every frame, the decoder waits (default for files and sequences)"),
        .flag("live", "process the newest frame, drop the others (default for network URLs and cameras)"),
        .value("stride", "N", default: "1", "only every Nth frame (by decode index) is a candidate"),
        .value("duration", "SECONDS", "stop after that much stream time"),
        .value("input-timeout", "SECONDS", default: "10", "to wait for an input that sends nothing"),
        .flag("no-autorotate", """
            frames as stored: without it, a video whose display matrix says to turn it (a
            phone's portrait video) is read upright, as ffmpeg shows it
            """),
    ])

    /// INPUT, or `/dev/videoN` for `--camera N`.
    let input: String
    /// `--input-timeout`, `--no-autorotate`, `--input-format` and `--input-option`.
    let readerOptions: VideoReaderOptions
    /// `--live` (true), `--every` (false), or neither (the source's kind decides).
    let live: Bool?
    let stride: Int
    /// `--duration`: stream time to read.
    let duration: Duration?

    init(arguments: inout Arguments) throws {
        let live = arguments.flag("live"), every = arguments.flag("every")
        guard !(live && every) else { throw CLIError("--live and --every exclude each other") }
        self.live = live ? true : every ? false : nil
        stride = try arguments.int("stride", range: 1...1_000_000)
        duration = try arguments.string("duration").map { text in
            guard let seconds = Double(text), seconds > 0 else { throw CLIError("--duration must be a positive number of seconds, got '\(text)'") }
            return .rounded(seconds: seconds)
        }
        readerOptions = VideoReaderOptions(timeout: Double(try arguments.float("input-timeout", range: 0.1...3600)),
                                           autorotate: !arguments.flag("no-autorotate"),
                                           inputFormat: arguments.string("input-format"),
                                           inputOptions: try arguments.keyValues("input-option", example: "video_size=1280x720"))
        let camera: Int? = arguments.string("camera") == nil ? nil : try arguments.int("camera", default: 0, range: 0...255)
        switch (camera, arguments.positionals.count) {
        case (let index?, 0): input = VideoSourceKind.cameraPath(index)
        case (nil, 1): input = arguments.positionals[0]
        case (nil, 0): throw CLIError("no video input given: a file, a URL or --camera N (Darknet's demo without a file reads camera 0)")
        case (_?, _): throw CLIError("--camera and INPUT exclude each other")
        default: throw CLIError("one video input at a time")
        }
    }

    /// Opens the input (before the network loads, so a bad file or URL fails first); for a
    /// device, says on stderr what it agreed to, which its `--input-option` values may not have
    /// asked for.
    func openReader() throws -> VideoReader {
        let reader = try VideoReader(source: input, options: readerOptions)
        if reader.kind == .device {
            let rate = reader.frameRate.map { String(format: " at %g fps", $0) } ?? ""
            let opened = "\(reader.width)x\(reader.height) \(reader.codecName) (\(reader.pixelFormatName))\(rate)"
            FileHandle.standardError.write(Data("swift-darknet: \(input): \(opened)\n".utf8))
        }
        return reader
    }

    /// Ends a run: finishes `output`, prints `statistics`' summary (and a live source's damaged
    /// packets) on stderr, then the error that ended the run, if any, or that finishing the
    /// output threw. Returns the exit status.
    func conclude(_ reader: VideoReader, output: AnnotatedOutput?, statistics: VideoStatistics, read: Int, skipped: Int,
                  failure: (any Error)?) -> Int32 {
        var failure = failure
        do {
            try output?.finish()
        } catch {
            if failure == nil { failure = error }
        }
        let summary = statistics.summary(read: read, skipped: skipped)
        FileHandle.standardError.write(Data("swift-darknet: \(summary)\n".utf8))
        if reader.damagedPackets > 0 && reader.kind.isLive {
            warn("\(input): \(reader.damagedPackets) damaged packets skipped")
        }
        guard let failure else { return 0 }
        FileHandle.standardError.write(Data("swift-darknet: \(cliMessage(failure))\n".utf8))
        return 1
    }

    /// `--live`/`--every` and `--stride` for `reader`: newest frame only for live sources by default.
    func policy(for reader: VideoReader) -> FramePolicy {
        FramePolicy(mode: (live ?? reader.kind.isLive) ? .latest : .every, stride: stride)
    }
}
