import Darknet
import DarknetImage
import DarknetVideo
import Foundation

/// The consuming side of `swift-darknet video` and `classify-video`: prints each result (JSON
/// or text line), writes the annotated frame, keeps the statistics and the progress line.
final class VideoRun: @unchecked Sendable {
    // Used by one task at a time: `consume` runs the loop and returns before anything else
    // reads `statistics`.
    private let feed: any VideoRunFeed
    private let output: AnnotatedOutput?
    private let json: Bool
    private let progress: VideoProgressLine
    private let total: Int?
    private(set) var statistics = VideoStatistics()

    init(feed: any VideoRunFeed, output: AnnotatedOutput?, json: Bool, progress: VideoProgressLine, total: Int?) {
        self.feed = feed
        self.output = output
        self.json = json
        self.progress = progress
        self.total = total
    }

    /// Handles every result until the stream ends; returns the error that ended it, if any.
    /// Blocks the calling (non-async) thread meanwhile.
    func consume<Result: VideoRunResult>(_ results: AsyncThrowingStream<Result, any Error>) -> (any Error)? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task {
            do {
                for try await result in results { try self.handle(result) }
            } catch {
                outcome.error = error
                self.feed.stop()
            }
            done.signal()
        }
        done.wait()
        progress.clear()
        return outcome.error
    }

    private func handle(_ result: some VideoRunResult) throws {
        statistics.record(result.statistics)
        FileHandle.standardOutput.write(Data((result.line(json: json) + "\n").utf8))
        if let output {
            if let frame = feed.takeFrame(result.index) {
                try result.write(frame, to: output)
            } else {
                warn("frame \(result.index) was no longer kept; not written to --out")
            }
        }
        progress.update { statistics.progress(read: feed.framesRead, total: total) }
    }

    private final class Outcome: @unchecked Sendable {
        var error: (any Error)?  // written by the task before `done.signal()`, read after `wait()`
    }
}

/// What a `VideoRun` reads frames through: `VideoFeed` (`video`) or `FrameFeeder` (`classify-video`).
protocol VideoRunFeed: AnyObject, Sendable {
    func takeFrame(_ index: Int) -> VideoFrame?
    var framesRead: Int { get }
    func stop()
}

extension VideoFeed: VideoRunFeed {}
extension FrameFeeder: VideoRunFeed {}

/// A pipeline's result as a `VideoRun` prints and draws it.
protocol VideoRunResult: Sendable {
    var index: Int { get }
    var statistics: FrameStatistics { get }
    /// The line printed for the frame (`--json`: one JSON object).
    func line(json: Bool) -> String
    /// Writes `frame` with the result drawn on it.
    func write(_ frame: VideoFrame, to output: AnnotatedOutput) throws
}

extension FrameResult: VideoRunResult {
    /// With tracking, each detection has its `"track"` ID and its box is the track's reported
    /// (smoothed) box.
    func line(json: Bool) -> String {
        let tracked = tracks.count == detections.count && !tracks.isEmpty
        if json {
            let array = tracked
                ? DetectionJSON.array(detections, rects: tracks.map(\.rect), extra: tracks.map { #""track": \#($0.trackID)"# })
                : DetectionJSON.array(detections)
            return String(format: #"{"frame": %d, "time": %.6f, "detections": "#, index, presentationTime.inSeconds) + array + "}"
        }
        let found = detections.enumerated().map { i, d in
            String(format: "%@%@: %.0f%%", d.label, tracked ? " #\(tracks[i].trackID)" : "", d.confidence * 100)
        }
        return String(format: "frame %d at %.3f s: ", index, presentationTime.inSeconds)
            + (found.isEmpty ? "-" : found.joined(separator: ", "))
    }

    func write(_ frame: VideoFrame, to output: AnnotatedOutput) throws {
        try output.write(frame, annotations: annotations)
    }

    /// Boxes to draw: detect's (labels of one box joined), or with tracking each track's
    /// (smoothed) box labelled with its ID.
    var annotations: [BoxAnnotation] {
        guard !tracks.isEmpty else { return DetectCommand.annotations(detections) }
        return tracks.map { t in
            BoxAnnotation(label: "\(t.label) \(t.trackID)", classIndex: t.classIndex,
                          left: t.rect.left, top: t.rect.top, right: t.rect.right, bottom: t.rect.bottom)
        }
    }
}

extension FrameClassification: VideoRunResult {
    func line(json: Bool) -> String {
        json ? String(format: #"{"frame": %d, "time": %.6f, "predictions": "#, index, presentationTime.inSeconds)
                + ClassificationJSON.array(classifications) + "}"
             : String(format: "frame %d at %.3f s: ", index, presentationTime.inSeconds)
                + classifications.map(\.description).joined(separator: ", ")
    }

    /// The classes drawn as Darknet's classifier demo shows them.
    func write(_ frame: VideoFrame, to output: AnnotatedOutput) throws {
        try output.write(PlanarImage(pixels: frame.pixels).annotated(with: classifications), of: frame)
    }
}
