import Darknet
import Foundation

/// `VideoFeed`'s engine, for any pipeline: decodes a video on a thread of its own and hands
/// each frame to `consumer` (a `DetectionPipeline`, or the `ClassificationPipeline` of
/// `swift-darknet classify-video`), finishing it at the end of the input, at the options'
/// duration or frame limit, on `stop()`, or with the `VideoError` that ended reading.
package final class FrameFeeder: @unchecked Sendable {
    // Invariant: every `var` is read and written under `lock`.
    private let reader: VideoReader
    private let consumer: any FrameConsumer
    private let options: VideoFeed.Options
    private let stride: Int
    private let lock = NSLock()
    private var failure: VideoError?
    private var stopped = false
    private var started = false
    private var read = 0
    private var skipped = 0
    private var kept: [Int: VideoFrame] = [:]

    /// A feeder of `reader`'s frames into `consumer`; nothing is read before `start()`.
    package init(reader: VideoReader, consumer: any FrameConsumer, options: VideoFeed.Options) {
        self.reader = reader
        self.consumer = consumer
        self.options = options
        stride = consumer.policy.stride
    }

    /// Starts decoding on a thread of the feed's own (once; later calls do nothing).
    package func start() {
        let first = lock.withLock {
            defer { started = true }
            return !started
        }
        guard first else { return }
        do {
            try options.validate()
        } catch {
            consumer.finish(throwing: error)
            return
        }
        let thread = Thread { [self] in decodeLoop() }
        thread.name = "SwiftDarknet.VideoFeed"
        thread.start()
    }

    /// Stops decoding (a Ctrl-C): the frames already in the consumer are still processed, and
    /// its `results` end without an error.
    package func stop() {
        lock.withLock { stopped = true }
        reader.cancel()
    }

    /// The error that ended reading early, if any (a `stop()` is none).
    package var error: VideoError? { lock.withLock { failure } }

    /// Frames decoded so far.
    package var framesRead: Int { lock.withLock { read } }

    /// Frames decoded so far that the consumer's stride skips.
    package var framesSkipped: Int { lock.withLock { skipped } }

    /// Frame `index`, if it is still kept (`Options.keptFrames`); forgets it and every older frame.
    package func takeFrame(_ index: Int) -> VideoFrame? {
        lock.withLock {
            let frame = kept[index]
            kept = kept.filter { $0.key > index }
            return frame
        }
    }

    private func decodeLoop() {
        var firstTime: Duration?
        var ending: VideoError?
        defer {
            if let ending { consumer.finish(throwing: ending) } else { consumer.finish() }
        }
        while options.frameLimit.map({ framesRead < $0 }) ?? true {
            let next: VideoFrame?
            do {
                next = try reader.nextFrame()
            } catch {
                ending = lock.withLock {
                    if case .cancelled = error, stopped { return nil }
                    failure = error
                    return error
                }
                return
            }
            guard let frame = next else { return }
            let start = firstTime ?? frame.presentationTime
            firstTime = start
            if let duration = options.duration, frame.presentationTime - start >= duration { return }
            guard record(frame) else { return }
            // Waits for room under .every; ends when the consumer has stopped.
            do { try consumer.submit(frame.pipelineFrame) } catch { return }
        }
    }

    /// Counts `frame` and keeps it if asked; false once `stop()` was called.
    private func record(_ frame: VideoFrame) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            read += 1
            if frame.index % stride != 0 {
                skipped += 1
            } else if options.keptFrames > 0 {
                kept[frame.index] = frame
                if kept.count > options.keptFrames, let oldest = kept.keys.min() { kept[oldest] = nil }
            }
            return true
        }
    }
}
