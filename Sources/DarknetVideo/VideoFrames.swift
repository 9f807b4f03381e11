import Darknet

extension VideoReader {
    /// The frames still to read, as an `AsyncSequence` that throws `VideoError`:
    ///
    /// ```swift
    /// let reader = try VideoReader(source: "clip.mp4")
    /// for try await frame in reader.frames {
    ///     let found = try await detector.detect(frame.pixels)
    /// }
    /// ```
    ///
    /// Each frame is decoded on a thread of the reader's own while the iterating task is
    /// suspended, so decoding (and waiting for a network stream) never blocks a thread of
    /// Swift's cooperative pool. Errors are those of `nextFrame()`; cancelling the iterating task
    /// cancels the reader (`cancel()`), so the pending read ends with `VideoError.cancelled`.
    /// The sequence shares the reader's position: iterate it once, from one task.
    ///
    /// For a synchronous loop on a thread of your own, call `nextFrame()` until it returns nil.
    public var frames: VideoFrames { VideoFrames(reader: self) }

    /// `nextFrame()` on the reader's decode thread, the calling task suspended meanwhile.
    func nextFrameOffThePool() async throws(VideoError) -> VideoFrame? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<VideoFrame?, VideoError>, Never>) in
                decodeThread.submit {
                    continuation.resume(returning: Result { () throws(VideoError) -> VideoFrame? in try self.nextFrame() })
                }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }
}

/// The frames of a `VideoReader` as an `AsyncSequence` (`VideoReader.frames`).
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = VideoFrame
    public typealias Failure = VideoError

    let reader: VideoReader

    public func makeAsyncIterator() -> Iterator { Iterator(reader: reader) }

    /// Reads the next frame on the reader's decode thread.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: VideoReader

        public mutating func next() async throws(VideoError) -> VideoFrame? {
            try await reader.nextFrameOffThePool()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(VideoError) -> VideoFrame? {
            try await reader.nextFrameOffThePool()
        }
    }
}
