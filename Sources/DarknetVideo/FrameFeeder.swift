import Darknet
import Foundation

/// `VideoFeed` for any pipeline: decodes a video on a thread of its own and hands each frame to
/// a `DetectionPipeline` or a `ClassificationPipeline` (what `swift-darknet classify-video`
/// feeds), finishing it at the end of the input, at the options' duration or frame limit, on
/// `stop()`, or with the `VideoError` that ended reading; it keeps the latest frames for
/// `takeFrame(_:)` as `VideoFeed` does.
///
/// ```swift
/// let reader = try VideoReader(source: "clip.mp4")
/// let pipeline = ClassificationPipeline(classifier: classifier, policy: .every)
/// let feeder = FrameFeeder(reader: reader, pipeline: pipeline, options: VideoFeed.Options(keptFrames: 30))
/// feeder.start()
/// for try await result in pipeline.results { print(result.index, feeder.takeFrame(result.index) != nil) }
/// ```
public final class FrameFeeder: @unchecked Sendable {
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

    /// A feeder of `reader`'s frames into `pipeline`; nothing is read before `start()`.
    /// - Parameters:
    ///   - reader: the video to decode.
    ///   - pipeline: a `DetectionPipeline` or a `ClassificationPipeline`; its policy decides
    ///     whether the decoder waits (`.every`) or never does (`.latest`).
    ///   - options: when reading stops and how many frames are kept; a negative limit or count
    ///     ends the pipeline's `results` with an `ArgumentError` when started.
    public convenience init<Result>(reader: VideoReader, pipeline: FramePipeline<Result>,
                                    options: VideoFeed.Options = VideoFeed.Options()) {
        self.init(reader: reader, consumer: pipeline, options: options)
    }

    /// A feeder of `reader`'s frames into `consumer`; nothing is read before `start()`.
    package init(reader: VideoReader, consumer: any FrameConsumer, options: VideoFeed.Options) {
        self.reader = reader
        self.consumer = consumer
        self.options = options
        stride = consumer.policy.stride
    }

    /// Starts decoding on a thread of the feed's own (once; later calls do nothing).
    public func start() {
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
    public func stop() {
        lock.withLock { stopped = true }
        reader.cancel()
    }

    /// The error that ended reading early, if any (a `stop()` is none).
    public var error: VideoError? { lock.withLock { failure } }

    /// Frames decoded so far.
    public var framesRead: Int { lock.withLock { read } }

    /// Frames decoded so far that the consumer's stride skips.
    public var framesSkipped: Int { lock.withLock { skipped } }

    /// Frame `index`, if it is still kept (`Options.keptFrames`); forgets it and every older frame.
    public func takeFrame(_ index: Int) -> VideoFrame? {
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
