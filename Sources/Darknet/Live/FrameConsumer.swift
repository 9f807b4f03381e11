/// A pipeline that a producer on a thread of its own feeds (`DetectionPipeline`,
/// `ClassificationPipeline`): what a video feed needs of it.
package protocol FrameConsumer: AnyObject, Sendable {
    /// Which frames the pipeline processes.
    var policy: FramePolicy { get }
    /// Hands over a frame, blocking under `.every` while the queue is full; throws once the
    /// pipeline has stopped.
    func submit(_ frame: Frame) throws
    /// No more frames.
    func finish()
    /// No more frames because the producer failed: `results` end with `error` after the frames
    /// already in.
    func finish(throwing error: any Error)
}
