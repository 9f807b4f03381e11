import Foundation

/// Classification of a stream of frames — a camera, a video, any producer — with a frame
/// policy, results in order as an `AsyncSequence`, and per-frame statistics: what
/// `DetectionPipeline` is for a `Detector`, for a `Classifier`.
///
/// One thread of the library's own letterboxes the next frame into the network input while
/// another runs the forward pass on the current one. The pipeline holds one session of its
/// classifier for its lifetime; each frame's classes equal `Classifier.classify(frame.pixels,
/// options:)`'s.
///
/// ```swift
/// let pipeline = ClassificationPipeline(classifier: classifier, policy: .latest,
///                                       options: ClassificationOptions(top: 3))
/// camera.onFrame = { pixels, time in _ = pipeline.offer(Frame(pixels: pixels, presentationTime: time)) }
/// for try await result in pipeline.results {
///     show(result.classifications.first?.label, result.statistics.processedFPS)
/// }
/// ```
///
/// Feed it with `offer` (never waits: for callbacks), `send` (waits under `.every`) or `submit`
/// (from a thread of the caller's own), or hand it an `AsyncSequence` of frames with
/// `process(_:)`; call `finish()` after the last frame (`FramePipeline`). Deinitialising the
/// pipeline finishes it too: frames already in are still classified.
public final class ClassificationPipeline: FramePipeline<FrameClassification>, @unchecked Sendable {
    /// A pipeline over `classifier`'s network.
    /// - Parameters:
    ///   - classifier: runs the forward passes (its `threads` each); it may serve other callers too.
    ///   - policy: which frames are classified (`.latest` for live sources, `.every` for files).
    ///   - options: how many classes each result has.
    ///
    /// An invalid policy (a stride below 1) or options (a negative `top`) do not trap: the
    /// pipeline takes no frame and `results` ends with the `ArgumentError`.
    public init(classifier: Classifier, policy: FramePolicy = .latest, options: ClassificationOptions = ClassificationOptions()) {
        super.init(work: ClassificationWork(classifier: classifier, options: options), policy: policy, now: { ContinuousClock.now })
    }

    /// The pipeline no longer takes frames (finished, stopped or failed).
    public struct Stopped: DarknetError {
        public var description: String { "the classification pipeline has finished or stopped" }
    }
}
