import Darknet

/// One decoded video frame, ready for `Detector.detect(_:region:options:)`.
public struct VideoFrame: Sendable {
    /// The picture: YUV planes straight from the decoder where the core reads the decoder's
    /// format (no copy), otherwise an RGB copy made by libswscale (see `FrameConverter`); where
    /// the stream says to turn it (`VideoReaderOptions.autorotate`), a turned copy of either.
    public let pixels: PixelBuffer
    /// Presentation time, from the stream's timestamps (`best_effort_timestamp` times the
    /// stream's time base, to the nearest nanosecond; frames without one continue from the
    /// previous frame at the stream's frame rate).
    public let presentationTime: Duration
    /// 0-based index in the order the decoder returned the frames.
    public let index: Int
    /// When the decoder returned it.
    public let decodeInstant: ContinuousClock.Instant

    /// A frame from its parts (to feed a consumer of frames in tests).
    public init(pixels: PixelBuffer, presentationTime: Duration, index: Int, decodeInstant: ContinuousClock.Instant = .now) {
        self.pixels = pixels
        self.presentationTime = presentationTime
        self.index = index
        self.decodeInstant = decodeInstant
    }

    /// `presentationTime` in seconds.
    @available(*, deprecated, message: "use presentationTime (a Duration)")
    public var timestamp: Double { presentationTime.inSeconds }

    /// `decodeInstant` in `DispatchTime.now().uptimeNanoseconds`.
    @available(*, deprecated, message: "use decodeInstant (a ContinuousClock instant)")
    public var decodedAt: UInt64 { decodeInstant.uptimeNanoseconds }
}

extension VideoFrame: CustomStringConvertible {
    /// Its index, presentation time and pixels' format and size, as
    /// `VideoFrame(index 3, 0.12 seconds, I420 (video range), 640 x 480)`.
    public var description: String { "VideoFrame(index \(index), \(presentationTime), \(pixels.summary))" }
}

/// How `VideoReader` opens and waits.
public struct VideoReaderOptions: Sendable, Equatable {
    /// Longest wait in seconds for opening a source and for each packet after that; a source
    /// that sends nothing for this long fails with `VideoError.timedOut`. Applies to files too
    /// (a FIFO that never writes), and bounds network waits through libavformat's interrupt
    /// callback plus the protocols' own `timeout`/`rw_timeout` options.
    public var timeout: Double
    /// libavcodec decoding threads (1: decode on the caller's thread only; at least 1).
    public var decoderThreads: Int
    /// Largest frame area in pixels the decoder accepts (libavcodec's `max_pixels`); a stream
    /// declaring more fails to open or to decode. At least 1.
    public var maxPixels: Int
    /// Whether frames come turned upright by the stream's display matrix
    /// (`VideoReader.rotation`), as `ffmpeg` and OpenCV return them (false: as stored, like
    /// `ffmpeg -noautorotate`). A turned frame is a copy, in the format it would have had.
    public var autorotate: Bool
    /// The libavformat demuxer or libavdevice input to read the source with, as `ffmpeg -f`
    /// names it: `v4l2` for a camera (the default for `/dev/video*`), `lavfi`, `x11grab`,
    /// `mjpeg`...; nil lets libavformat recognise the source.
    public var inputFormat: String?
    /// Options of that input, as `ffmpeg` takes them before `-i`: a camera's `video_size`
    /// (`1280x720`), `framerate` and `input_format` (`mjpeg`), an image sequence's
    /// `framerate`... An option the input does not have fails the opening.
    public var inputOptions: [String: String]

    /// Options; `VideoReader` refuses invalid ones (`problem`) with `VideoError.cannotOpen`.
    public init(timeout: Double = 10, decoderThreads: Int = 1, maxPixels: Int = 1 << 28, autorotate: Bool = true,
                inputFormat: String? = nil, inputOptions: [String: String] = [:]) {
        self.timeout = timeout
        self.decoderThreads = decoderThreads
        self.maxPixels = maxPixels
        self.autorotate = autorotate
        self.inputFormat = inputFormat
        self.inputOptions = inputOptions
    }

    /// What is wrong with these options, if anything: a `timeout` that is not a positive
    /// number of seconds, fewer than 1 `decoderThreads` or `maxPixels`, an empty
    /// `inputFormat` or option name.
    public var problem: ArgumentError? {
        if !(timeout > 0) {
            return ArgumentError(argument: "VideoReaderOptions.timeout", value: String(timeout), expected: "a number of seconds > 0")
        }
        if decoderThreads < 1 {
            return ArgumentError(argument: "VideoReaderOptions.decoderThreads", value: String(decoderThreads), expected: "an integer >= 1")
        }
        if maxPixels < 1 {
            return ArgumentError(argument: "VideoReaderOptions.maxPixels", value: String(maxPixels), expected: "an integer >= 1")
        }
        if inputFormat?.isEmpty == true {
            return ArgumentError(argument: "VideoReaderOptions.inputFormat", value: "\"\"", expected: "a format name such as v4l2, or nil")
        }
        if inputOptions.keys.contains("") {
            return ArgumentError(argument: "VideoReaderOptions.inputOptions", value: "\"\" (an option name)", expected: "names such as video_size")
        }
        return nil
    }
}

extension VideoFrame {
    /// The frame for a `DetectionPipeline`: same pixels, presentation time and index, latency
    /// measured from when the decoder returned it.
    public var pipelineFrame: Frame {
        Frame(pixels: pixels, presentationTime: presentationTime, index: index, captureInstant: decodeInstant)
    }
}
