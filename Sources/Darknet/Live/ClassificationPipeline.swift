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
/// `process(_:)`; call `finish()` after the last frame. Deinitialising the pipeline finishes it
/// too: frames already in are still classified.
public final class ClassificationPipeline: Sendable {
    private let core: PipelineCore<ClassificationWork>

    /// The results, in frame order; ends after `finish()` once every frame is classified or
    /// dropped, or with an error if a frame cannot be classified (or, before any frame, with an
    /// `ArgumentError` if the policy or options are invalid). One consumer; stopping iteration
    /// stops the pipeline.
    public let results: AsyncThrowingStream<FrameClassification, any Error>

    /// A pipeline over `classifier`'s network.
    /// - Parameters:
    ///   - classifier: runs the forward passes (its `threads` each); it may serve other callers too.
    ///   - policy: which frames are classified (`.latest` for live sources, `.every` for files).
    ///   - options: how many classes each result has.
    ///
    /// An invalid policy (a stride below 1) or options (a negative `top`) do not trap: the
    /// pipeline takes no frame and `results` ends with the `ArgumentError`.
    public init(classifier: Classifier, policy: FramePolicy = .latest, options: ClassificationOptions = ClassificationOptions()) {
        let (stream, continuation) = AsyncThrowingStream<FrameClassification, any Error>.makeStream()
        results = stream
        core = PipelineCore(work: ClassificationWork(classifier: classifier, options: options), policy: policy,
                            now: { ContinuousClock.now }, output: continuation)
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
    /// - Throws: `ClassificationPipeline.Stopped` if the pipeline stopped or finished.
    public func send(_ frame: Frame) async throws { try await core.send(frame) }

    /// Hands over a frame from a thread of the caller's own (a camera or decoder thread): under
    /// `.latest` at once, as `offer`; under `.every` blocking the thread until there is room.
    /// - Throws: `ClassificationPipeline.Stopped` if the pipeline finished or stopped (the
    ///   frame was not taken).
    public func submit(_ frame: Frame) throws { try core.submit(frame) }

    /// No more frames: `results` ends once the frames already in are classified.
    public func finish() { core.finish() }

    /// No more frames, because the producer failed: the frames already in are classified, then
    /// `results` ends with `error` (a video that cannot be read further).
    package func finish(throwing error: any Error) { core.finish(throwing: error) }

    /// Feeds every frame of `frames` (with `send`, so `.every` holds the sequence back; under
    /// `.latest` frames are offered as they come), then finishes. Returns `results`; if the
    /// sequence throws, they end with its error once the frames it gave are processed.
    public func process<Frames: AsyncSequence & Sendable>(_ frames: Frames) -> AsyncThrowingStream<FrameClassification, any Error>
        where Frames.Element == Frame {
        core.feed(frames)
        return results
    }

    /// The pipeline no longer takes frames (finished, stopped or failed).
    public struct Stopped: DarknetError {
        public var description: String { "the classification pipeline has finished or stopped" }
    }
}
