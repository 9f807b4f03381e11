import Darknet
import Foundation

/// Decodes a video on a thread of its own and hands every frame to a `DetectionPipeline`: under
/// `.latest` at once (the decoder never waits; the pipeline drops older frames), otherwise
/// waiting while the pipeline's queue is full. It finishes the pipeline at the end of the input,
/// at `Options.duration` or `Options.frameLimit`, and on `stop()`; a read error (a damaged or
/// cut file, a stream that stops) finishes it too, and the pipeline's `results` end with that
/// `VideoError` once the frames decoded before it are processed.
///
/// ```swift
/// let reader = try VideoReader(source: "clip.mp4")
/// let pipeline = DetectionPipeline(detector: detector, policy: .every)
/// let feed = VideoFeed(reader: reader, pipeline: pipeline)
/// feed.start()
/// for try await result in pipeline.results { print(result.index, result.detections.count) }
/// ```
/// `DetectionPipeline.process(_:options:)` does the same in one call.
public final class VideoFeed: Sendable {
    /// When a feed stops reading, and which decoded frames it keeps.
    public struct Options: Sendable, Equatable {
        /// Stream time after the first frame at which reading stops (nil: to the end).
        public var duration: Duration?
        /// Frames read at most (nil: all).
        public var frameLimit: Int?
        /// How many of the latest decoded frames that the stride admits to keep for
        /// `takeFrame(_:)` (0: none), to draw a result on its frame.
        public var keptFrames: Int

        /// Options; a feed refuses a negative limit or kept count (`ArgumentError` in `results`).
        public init(duration: Duration? = nil, frameLimit: Int? = nil, keptFrames: Int = 0) {
            self.duration = duration
            self.frameLimit = frameLimit
            self.keptFrames = keptFrames
        }

        func validate() throws(ArgumentError) {
            if let frameLimit { try ArgumentError.require("VideoFeed.Options.frameLimit", frameLimit, atLeast: 0) }
            try ArgumentError.require("VideoFeed.Options.keptFrames", keptFrames, atLeast: 0)
        }
    }

    /// The reader the feed decodes.
    public let reader: VideoReader
    /// The pipeline it feeds.
    public let pipeline: DetectionPipeline
    /// When it stops and what it keeps.
    public let options: Options
    private let feeder: FrameFeeder

    /// A feed of `reader`'s frames into `pipeline`; nothing is read before `start()`.
    public init(reader: VideoReader, pipeline: DetectionPipeline, options: Options = Options()) {
        self.reader = reader
        self.pipeline = pipeline
        self.options = options
        feeder = FrameFeeder(reader: reader, consumer: pipeline, options: options)
    }

    /// Starts decoding on a thread of the feed's own (once; later calls do nothing).
    public func start() { feeder.start() }

    /// Stops decoding (a Ctrl-C): the frames already in the pipeline are still processed, and
    /// `results` end without an error.
    public func stop() { feeder.stop() }

    /// The error that ended reading early, if any (a `stop()` is none).
    public var error: VideoError? { feeder.error }

    /// Frames decoded so far.
    public var framesRead: Int { feeder.framesRead }

    /// Frames decoded so far that the pipeline's stride skips.
    public var framesSkipped: Int { feeder.framesSkipped }

    /// Frame `index`, if it is still kept (`Options.keptFrames`); forgets it and every older frame.
    public func takeFrame(_ index: Int) -> VideoFrame? { feeder.takeFrame(index) }
}

extension FramePipeline {
    /// Runs the pipeline (a `DetectionPipeline` or a `ClassificationPipeline`) on every frame of
    /// `reader` (as the policy admits), decoded on a thread of its own as a `VideoFeed` decodes,
    /// and returns `results`: they end after the last frame, or with the `VideoError` that ended
    /// reading once the frames before it are processed. Stopping iteration stops the pipeline
    /// and the reading.
    ///
    /// ```swift
    /// let pipeline = DetectionPipeline(detector: detector, policy: .every)
    /// for try await result in pipeline.process(try VideoReader(source: "clip.mp4")) {
    ///     print(result.presentationTime, result.detections.map(\.label))
    /// }
    /// ```
    /// `options.keptFrames` does not apply: no feed is returned to take frames from (make the
    /// `VideoFeed` yourself for that).
    public func process(_ reader: VideoReader, options: VideoFeed.Options = VideoFeed.Options()) -> AsyncThrowingStream<Result, any Error> {
        var fed = options
        if fed.keptFrames > 0 { fed.keptFrames = 0 }  // a negative count is still refused
        FrameFeeder(reader: reader, consumer: self, options: fed).start()
        return results
    }
}
