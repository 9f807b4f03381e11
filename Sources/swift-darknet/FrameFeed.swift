import Darknet
import DarknetVideo
import Foundation

/// Decodes on a thread of its own and hands every frame to a `DetectionPipeline`: with
/// `offer` under `.latest` (the decoder never waits; the pipeline drops older frames), with
/// `send` otherwise (the decoder waits while the pipeline's queue is full). Finishes the
/// pipeline at the end of the input, on an error, on `--duration` and on `stop()`.
final class FrameFeed: @unchecked Sendable {
    // Invariant: every `var` is read and written under `lock`.
    private let reader: VideoReader
    private let pipeline: DetectionPipeline
    private let stride: Int
    private let duration: Double?
    private let keepFrames: Bool
    private let lock = NSLock()
    private var failure: VideoError?
    private var stopped = false
    private var read = 0
    private var skipped = 0
    private var kept: [Int: VideoFrame] = [:]
    /// Frames kept for `--out` at most (a `.latest` run drops most of them unseen).
    private let keptLimit = 120

    /// - Parameters:
    ///   - duration: stream seconds after the first frame at which reading stops.
    ///   - keepFrames: keep each frame's pixels until `take(_:)` asks for them (for `--out`).
    init(reader: VideoReader, pipeline: DetectionPipeline, duration: Double?, keepFrames: Bool) {
        self.reader = reader
        self.pipeline = pipeline
        self.stride = pipeline.policy.stride
        self.duration = duration
        self.keepFrames = keepFrames
    }

    func start() {
        let thread = Thread { [self] in decodeLoop() }
        thread.name = "swift-darknet video decode"
        thread.start()
    }

    /// The error that ended reading early, if any (a Ctrl-C stop is none).
    var error: VideoError? { lock.withLock { failure } }

    /// Frames decoded, and of those skipped by the stride, so far.
    var counts: (read: Int, skipped: Int) { lock.withLock { (read, skipped) } }

    /// The pixels of frame `index` (with `keepFrames`), forgetting it and every older frame.
    func take(_ index: Int) -> VideoFrame? {
        lock.withLock {
            let frame = kept[index]
            kept = kept.filter { $0.key > index }
            return frame
        }
    }

    /// Stops decoding (Ctrl-C): frames already in the pipeline are still processed.
    func stop() {
        lock.withLock { stopped = true }
        reader.cancel()
    }

    private func decodeLoop() {
        var firstTimestamp: Double?
        defer { pipeline.finish() }
        while true {
            let next: VideoFrame?
            do {
                next = try reader.nextFrame()
            } catch {
                lock.withLock {
                    if case .cancelled = error, stopped { return }
                    failure = error
                }
                return
            }
            guard let frame = next else { return }
            let start = firstTimestamp ?? frame.timestamp
            firstTimestamp = start
            if let duration, frame.timestamp - start >= duration { return }
            let proceed = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                read += 1
                if frame.index % stride != 0 {
                    skipped += 1
                } else if keepFrames {
                    kept[frame.index] = frame
                    if kept.count > keptLimit, let oldest = kept.keys.min() { kept[oldest] = nil }
                }
                return true
            }
            guard proceed else { return }
            // Waits for room under --every; stops when the pipeline has.
            do { try pipeline.submit(frame.pipelineFrame) } catch { return }
        }
    }
}
