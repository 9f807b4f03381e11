/// What a live pipeline (`DetectionPipeline`, `ClassificationPipeline`) does with a frame on
/// each of its two threads: the preprocess thread fits the frame into a network input, the
/// forward thread runs the network on it and makes the frame's result. `PipelineCore` does the
/// rest: the frame policy, the input buffers, the threads, the statistics and the result stream.
protocol PipelineWork: AnyObject, Sendable {
    /// What a frame gives (`[Detection]` and tracks, `[Classification]`).
    associatedtype Output
    /// What the pipeline's `results` yield for a frame.
    associatedtype Result: Sendable

    /// Floats of one network input.
    var inputCount: Int { get }
    /// Whether the preprocess thread fits each frame into an input buffer; when false (tiling),
    /// the forward thread takes the frame whole and `run` borrows its own sessions.
    var fitsFrames: Bool { get }
    /// The error a producer gets when the pipeline no longer takes frames.
    var stopped: any Error { get }

    /// Checks the options before the first frame (an invalid option ends `results`).
    func validate() throws
    /// Fits `pixels` into `input` (on the preprocess thread).
    func fit(_ pixels: PixelBuffer, into input: UnsafeMutableBufferPointer<Float>) throws -> LetterboxGeometry
    /// The session the forward thread holds for the pipeline's lifetime when `fitsFrames`.
    func takeSession() -> PooledSession
    /// Returns the session `takeSession` gave.
    func giveBack(_ session: PooledSession)
    /// Runs one frame on the forward thread and returns what it gives with the instant its
    /// forward pass ended.
    func run(_ input: PipelineInput, index: Int, session: PooledSession?,
             now: () -> ContinuousClock.Instant) throws -> (output: Output, forwarded: ContinuousClock.Instant)
    /// The frame's result.
    func result(index: Int, presentationTime: Duration, output: Output, statistics: FrameStatistics) -> Result
}

/// A frame as the forward thread gets it.
enum PipelineInput {
    /// Fitted into a network input, with where the frame sits in it.
    case fitted(UnsafeBufferPointer<Float>, LetterboxGeometry)
    /// The frame itself (`PipelineWork.fitsFrames` false).
    case whole(PixelBuffer)
}
