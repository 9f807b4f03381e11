import Foundation

/// What `DetectionPipeline` and `ClassificationPipeline` share: frames go in under a
/// `FramePolicy` (`offer`, `send`, `submit`, or a whole sequence with `process`), each is
/// prepared on one thread of the library's own while the frame before it runs on another, and
/// the results come out in frame order (`results`), with their `FrameStatistics`.
///
/// Generic code can take either pipeline as a `FramePipeline<Result>`; make one of the two
/// (this class has no public initialiser).
public class FramePipeline<Result: Sendable>: @unchecked Sendable {
    // Immutable after init; the core synchronises its own state.
    private let core: any FrameIntake

    /// The results, in frame order; ends after `finish()` once every frame is processed or
    /// dropped, or with an error if a frame cannot be processed (or, before any frame, with an
    /// `ArgumentError` if the policy or options are invalid). One consumer; stopping iteration
    /// stops the pipeline.
    public let results: AsyncThrowingStream<Result, any Error>

    /// A pipeline doing `work` on each frame; its threads start at once.
    init<Work: PipelineWork>(work: Work, policy: FramePolicy, now: @escaping @Sendable () -> ContinuousClock.Instant)
        where Work.Result == Result {
        let (stream, continuation) = AsyncThrowingStream<Result, any Error>.makeStream()
        let core = PipelineCore(work: work, policy: policy, now: now, output: continuation)
        results = stream
        self.core = core
        continuation.onTermination = { _ in core.stop() }
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
    /// - Throws: the pipeline's `Stopped` (`DetectionPipeline.Stopped`,
    ///   `ClassificationPipeline.Stopped`) if it stopped or finished.
    public func send(_ frame: Frame) async throws { try await core.send(frame) }

    /// Hands over a frame from a thread of the caller's own (a camera or decoder thread): under
    /// `.latest` at once, as `offer`; under `.every` blocking the thread until there is room.
    /// - Throws: the pipeline's `Stopped` if it finished or stopped (the frame was not taken).
    public func submit(_ frame: Frame) throws { try core.submit(frame) }

    /// No more frames: `results` ends once the frames already in are processed.
    public func finish() { core.finish() }

    /// No more frames, because the producer failed: the frames already in are processed, then
    /// `results` ends with `error` (a video that cannot be read further).
    package func finish(throwing error: any Error) { core.finish(throwing: error) }

    /// Ends `results` with `error` after the frame under way; no more frames are taken (a
    /// producer that cannot go on).
    package func fail(_ error: any Error) { core.fail(error) }

    /// Feeds every frame of `frames` (with `send`, so `.every` holds the sequence back; under
    /// `.latest` frames are offered as they come), then finishes. Returns `results`; if the
    /// sequence throws, they end with its error once the frames it gave are processed.
    public func process<Frames: AsyncSequence & Sendable>(_ frames: Frames) -> AsyncThrowingStream<Result, any Error>
        where Frames.Element == Frame {
        core.feed(frames)
        return results
    }
}

extension FramePipeline: FrameConsumer {}

/// A `PipelineCore` seen without its work type: how frames get in and the stream ends.
protocol FrameIntake: AnyObject, Sendable {
    var policy: FramePolicy { get }
    func offer(_ frame: Frame) -> Bool
    func send(_ frame: Frame) async throws
    func submit(_ frame: Frame) throws
    func feed<Frames: AsyncSequence & Sendable>(_ frames: Frames) where Frames.Element == Frame
    func finish(throwing error: (any Error)?)
    func fail(_ error: any Error)
    func stop()
}

extension FrameIntake {
    func finish() { finish(throwing: nil) }
}

extension PipelineCore: FrameIntake {}
