import Foundation

/// Detection on a stream of frames — a camera, a video, any producer — with a frame policy,
/// results in order as an `AsyncSequence`, and per-frame statistics.
///
/// Two threads of the library's own do the work: one letterboxes the next frame into the
/// network input while the other runs the forward pass on the current one (the overlap uses a
/// free core; with `Detector.threads` at the core count they share). The pipeline holds one
/// session of its detector for its lifetime (with tiling, the detector's tile sessions per frame).
///
/// ```swift
/// let pipeline = DetectionPipeline(detector: detector, policy: .latest)
/// camera.onFrame = { pixels, time in _ = pipeline.offer(Frame(pixels: pixels, presentationTime: time)) }
/// for try await result in pipeline.results {
///     draw(result.detections); show(result.statistics.processedFPS)
/// }
/// ```
///
/// Feed it with `offer` (never waits: for callbacks) or `send` (waits under `.every`), or hand
/// it an `AsyncSequence` of frames with `process(_:)`; call `finish()` after the last frame.
/// Deinitialising the pipeline finishes it too: frames already in are still processed.
public final class DetectionPipeline: Sendable {
    private let core: PipelineCore<DetectionWork>

    /// The results, in frame order; ends after `finish()` once every frame is processed or
    /// dropped, or with an error if a frame cannot be processed (or, before any frame, with an
    /// `ArgumentError` if the policy or options are invalid). One consumer; stopping iteration
    /// stops the pipeline.
    public let results: AsyncThrowingStream<FrameResult, any Error>

    /// A pipeline over `detector`'s network.
    /// - Parameters:
    ///   - detector: runs the forward passes (its `threads` each); it may serve other callers too.
    ///   - policy: which frames are processed (`.latest` for live sources, `.every` for files).
    ///   - options: thresholds and result shaping, as for `Detector.detect`. With `tiling`, each
    ///     frame's tiles run on the forward thread (`threads` of them at once; the preprocess
    ///     thread only hands the frame on), and `FrameStatistics.forward` is their time.
    ///   - tracking: give detections stable IDs across the processed frames (`ObjectTracker`,
    ///     with its box smoothing); `nil`: no tracking, `FrameResult.tracks` stays empty.
    ///
    /// An invalid policy (a stride below 1) or options (see `DetectionOptions.validate()`) do not
    /// trap: the pipeline takes no frame and `results` ends with the `ArgumentError`.
    public convenience init(detector: Detector, policy: FramePolicy = .latest, options: DetectionOptions = DetectionOptions(),
                            tracking: TrackerOptions? = nil) {
        self.init(detector: detector, policy: policy, options: options, tracking: tracking, now: { ContinuousClock.now })
    }

    /// A pipeline measuring time with `clock` (nanoseconds).
    @available(*, deprecated, message: "pipelines measure with ContinuousClock: use init(detector:policy:options:tracking:)")
    public convenience init(detector: Detector, policy: FramePolicy = .latest, options: DetectionOptions = DetectionOptions(),
                            tracking: TrackerOptions? = nil, clock: any PipelineClock) {
        let origin = ContinuousClock.now, start = clock.now()
        self.init(detector: detector, policy: policy, options: options, tracking: tracking,
                  now: { origin + .nanoseconds(Int64(bitPattern: clock.now() &- start)) })
    }

    private init(detector: Detector, policy: FramePolicy, options: DetectionOptions, tracking: TrackerOptions?,
                 now: @escaping @Sendable () -> ContinuousClock.Instant) {
        let (stream, continuation) = AsyncThrowingStream<FrameResult, any Error>.makeStream()
        results = stream
        let work = DetectionWork(detector: detector, options: options, tracker: tracking.map { ObjectTracker(options: $0) })
        core = PipelineCore(work: work, policy: policy, now: now, output: continuation)
        continuation.onTermination = { [core] _ in core.stop() }
        core.start()
    }

    deinit { core.finish() }

    /// The pipeline's policy.
    public var policy: FramePolicy { core.policy }

    /// Hands over a frame without waiting. Under `.latest` it is always taken (an older frame
    /// still waiting is dropped); under `.every` it is refused (`false`) while the queue is
    /// full, and after `finish()`.
    @discardableResult
    public func offer(_ frame: Frame) -> Bool { core.offer(frame) }

    /// Hands over a frame, waiting under `.every` until there is room (back-pressure).
    /// - Throws: `DetectionPipeline.Stopped` if the pipeline stopped or finished.
    public func send(_ frame: Frame) async throws { try await core.send(frame) }

    /// Hands over a frame from a thread of the caller's own (a camera or decoder thread): under
    /// `.latest` at once, as `offer`; under `.every` blocking the thread until there is room.
    /// - Throws: `DetectionPipeline.Stopped` if the pipeline finished or stopped (the frame
    ///   was not taken).
    public func submit(_ frame: Frame) throws { try core.submit(frame) }

    /// No more frames: `results` ends once the frames already in are processed.
    public func finish() { core.finish() }

    /// No more frames, because the producer failed: the frames already in are processed, then
    /// `results` ends with `error` (a video that cannot be read further).
    package func finish(throwing error: any Error) { core.finish(throwing: error) }

    /// Feeds every frame of `frames` (with `send`, so `.every` holds the sequence back; under
    /// `.latest` frames are offered as they come), then finishes. Returns `results`; if the
    /// sequence throws, they end with its error once the frames it gave are processed.
    public func process<Frames: AsyncSequence & Sendable>(_ frames: Frames) -> AsyncThrowingStream<FrameResult, any Error>
        where Frames.Element == Frame {
        core.feed(frames)
        return results
    }

    /// Ends `results` with `error` after the frame under way; no more frames are taken (a
    /// producer that cannot go on, such as a video that cannot be read further).
    package func fail(_ error: any Error) { core.fail(error) }

    /// The pipeline no longer takes frames (finished, stopped or failed).
    public struct Stopped: DarknetError {
        public var description: String { "the detection pipeline has finished or stopped" }
    }
}
