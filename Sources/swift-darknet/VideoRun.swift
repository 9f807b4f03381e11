import Darknet
import DarknetImage
import DarknetVideo
import Foundation

/// The consuming side of `swift-darknet video`: prints each result (JSON or text line),
/// writes the annotated frame, keeps the statistics and the progress line.
final class VideoRun: @unchecked Sendable {
    // Used by one task at a time: `consume` runs the loop and returns before anything else
    // reads `statistics`.
    private let feed: VideoFeed
    private let output: AnnotatedOutput?
    private let json: Bool
    private let progress: VideoProgressLine
    private let total: Int?
    private(set) var statistics = VideoStatistics()

    init(feed: VideoFeed, output: AnnotatedOutput?, json: Bool, progress: VideoProgressLine, total: Int?) {
        self.feed = feed
        self.output = output
        self.json = json
        self.progress = progress
        self.total = total
    }

    /// Handles every result until the stream ends; returns the error that ended it, if any.
    /// Blocks the calling (non-async) thread meanwhile.
    func consume(_ results: AsyncThrowingStream<FrameResult, any Error>) -> (any Error)? {
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

    private func handle(_ result: FrameResult) throws {
        statistics.record(result.statistics)
        emit(result)
        if let output {
            if let frame = feed.takeFrame(result.index) {
                try output.write(frame, annotations: Self.annotations(result))
            } else {
                warn("frame \(result.index) was no longer kept; not written to --out")
            }
        }
        progress.update { statistics.progress(read: feed.framesRead, total: total) }
    }

    /// Boxes to draw: detect's (labels of one box joined), or with tracking each track's
    /// (smoothed) box labelled with its ID.
    static func annotations(_ result: FrameResult) -> [BoxAnnotation] {
        guard !result.tracks.isEmpty else { return DetectCommand.annotations(result.detections) }
        return result.tracks.map { t in
            BoxAnnotation(label: "\(t.label) \(t.trackID)", classIndex: t.classIndex,
                          left: t.rect.left, top: t.rect.top, right: t.rect.right, bottom: t.rect.bottom)
        }
    }

    /// One JSON line, or a text line, per processed frame, written unbuffered. With tracking,
    /// each detection has its `"track"` ID and its box is the track's reported (smoothed) box.
    private func emit(_ result: FrameResult) {
        let tracked = result.tracks.count == result.detections.count && !result.tracks.isEmpty
        let line: String
        if json {
            let array = tracked
                ? DetectionJSON.array(result.detections, rects: result.tracks.map(\.rect),
                                      extra: result.tracks.map { #""track": \#($0.trackID)"# })
                : DetectionJSON.array(result.detections)
            line = String(format: #"{"frame": %d, "time": %.6f, "detections": "#, result.index, result.presentationTime.inSeconds)
                + array + "}"
        } else {
            let found = result.detections.enumerated().map { i, d in
                String(format: "%@%@: %.0f%%", d.label, tracked ? " #\(result.tracks[i].trackID)" : "", d.confidence * 100)
            }
            line = String(format: "frame %d at %.3f s: ", result.index, result.presentationTime.inSeconds)
                + (found.isEmpty ? "-" : found.joined(separator: ", "))
        }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private final class Outcome: @unchecked Sendable {
        var error: (any Error)?  // written by the task before `done.signal()`, read after `wait()`
    }
}
