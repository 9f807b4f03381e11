import Darknet

/// One decoded video frame, ready for `Detector.detect(_:region:options:)`.
public struct VideoFrame: Sendable {
    /// The picture: YUV planes straight from the decoder where the core reads the decoder's
    /// format (no copy), otherwise an RGB copy made by libswscale (see `FrameConverter`); where
    /// the stream says to turn it (`VideoReaderOptions.autorotate`), a turned copy of either.
    public let pixels: PixelBuffer
    /// Presentation time in seconds, from the stream's timestamps (`best_effort_timestamp`
    /// times the stream's time base; frames without one continue from the previous frame at
    /// the stream's frame rate).
    public let timestamp: Double
    /// 0-based index in the order the decoder returned the frames.
    public let index: Int
    /// When the decoder returned it (`DispatchTime.now().uptimeNanoseconds`).
    public let decodedAt: UInt64
}

/// How `VideoReader` opens and waits.
public struct VideoReaderOptions: Sendable, Equatable {
    /// Longest wait in seconds for opening a source and for each packet after that; a source
    /// that sends nothing for this long fails with `VideoError.timedOut`. Applies to files too
    /// (a FIFO that never writes), and bounds network waits through libavformat's interrupt
    /// callback plus the protocols' own `timeout`/`rw_timeout` options.
    public var timeout: Double
    /// libavcodec decoding threads (1: decode on the caller's thread only).
    public var decoderThreads: Int
    /// Largest frame area in pixels the decoder accepts (libavcodec's `max_pixels`); a stream
    /// declaring more fails to open or to decode.
    public var maxPixels: Int
    /// Whether frames come turned upright by the stream's display matrix
    /// (`VideoReader.rotation`), as `ffmpeg` and OpenCV return them (false: as stored, like
    /// `ffmpeg -noautorotate`). A turned frame is a copy, in the format it would have had.
    public var autorotate: Bool

    public init(timeout: Double = 10, decoderThreads: Int = 1, maxPixels: Int = 1 << 28, autorotate: Bool = true) {
        self.timeout = timeout
        self.decoderThreads = decoderThreads
        self.maxPixels = maxPixels
        self.autorotate = autorotate
    }
}

extension VideoFrame {
    /// The frame for a `DetectionPipeline`: same pixels, timestamp and index, latency measured
    /// from when the decoder returned it.
    public var pipelineFrame: Frame {
        Frame(pixels: pixels, timestamp: timestamp, index: index, captureTime: decodedAt)
    }
}
