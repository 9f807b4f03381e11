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
/// Feed it with `offer` (never waits: for callbacks), `send` (waits under `.every`) or `submit`
/// (from a thread of the caller's own), or hand it an `AsyncSequence` of frames with
/// `process(_:)`; call `finish()` after the last frame (`FramePipeline`). Deinitialising the
/// pipeline finishes it too: frames already in are still processed.
public final class DetectionPipeline: FramePipeline<FrameResult>, @unchecked Sendable {
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
        super.init(work: DetectionWork(detector: detector, options: options, tracker: tracking.map { ObjectTracker(options: $0) }),
                   policy: policy, now: now)
    }

    /// The pipeline no longer takes frames (finished, stopped or failed).
    public struct Stopped: DarknetError {
        public var description: String { "the detection pipeline has finished or stopped" }
    }
}
