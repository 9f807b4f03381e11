import Darknet
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// `VideoReader.frames` (an `AsyncSequence`) and `VideoFeed` / `DetectionPipeline.process(_:)`,
/// the video-to-pipeline feed the command line and darknet-bench use.
final class VideoFramesTests: XCTestCase {
    func testFramesGiveWhatNextFrameGives() async throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mp4"), frames: 20, codec: VideoTestSupport.h264)
        var expected: [VideoFrame] = []
        let reader = try VideoReader(source: clip.path)
        while let frame = try reader.nextFrame() { expected.append(frame) }

        var frames: [VideoFrame] = []
        for try await frame in try VideoReader(source: clip.path).frames { frames.append(frame) }
        XCTAssertEqual(frames.map(\.index), Array(0..<20))
        XCTAssertEqual(frames.map(\.presentationTime), expected.map(\.presentationTime))
        XCTAssertEqual(frames.map(\.presentationTime), (0..<20).map { .rounded(seconds: Double($0) / 30) })
        for (frame, other) in zip(frames, expected) {
            XCTAssertEqual(frame.pixels.format, other.pixels.format)
            let width = frame.pixels.width
            frame.pixels.withUnsafePlane(0) { plane, stride in
                other.pixels.withUnsafePlane(0) { otherPlane, otherStride in
                    let same = (0..<frame.pixels.height).allSatisfy { row in
                        plane[(row * stride)..<(row * stride + width)].elementsEqual(otherPlane[(row * otherStride)..<(row * otherStride + width)])
                    }
                    XCTAssertTrue(same, "frame \(frame.index): same luma")
                }
            }
        }
    }

    /// A video's frames through a `ClassificationPipeline`: every frame under `.every`, each
    /// with the classes the single call gives for its pixels; a cut file's frames before the
    /// damage, then its `VideoError`.
    func testClassificationPipelineClassifiesEveryFrameOfAVideo() async throws {
        let (directory, clip, classifier) = try sixFrameClipAndClassifier()
        let expected = try classifyEachFrame(of: clip, with: classifier)
        let pipeline = ClassificationPipeline(classifier: classifier, policy: .every, options: ClassificationOptions(top: 2))
        var results: [FrameClassification] = []
        for try await result in pipeline.process(try VideoReader(source: clip.path)) { results.append(result) }
        XCTAssertEqual(results.map(\.index), Array(0..<6))
        XCTAssertEqual(results.map(\.presentationTime), (0..<6).map { .rounded(seconds: Double($0) / 30) })
        XCTAssertEqual(results.map(\.classifications), expected)

        // A cut file: the frames before the damage are classified, then the read error.
        let truncated = try VideoTestSupport.truncatedClip(in: directory)
        let damaged = ClassificationPipeline(classifier: classifier, policy: .every, options: ClassificationOptions(top: 2))
        var indices: [Int] = []
        do {
            for try await result in damaged.process(try VideoReader(source: truncated.path)) { indices.append(result.index) }
            XCTFail("the results should end with the read error")
        } catch let error as VideoError {
            guard case .readFailed(let source, let framesRead, _) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertEqual(source, truncated.path)
            XCTAssertGreaterThan(framesRead, 0)
            XCTAssertEqual(indices, Array(0..<framesRead), "every frame before the damage is classified")
        }
    }

    /// `FrameFeeder`, the public feed for either pipeline (what `classify-video` uses): every
    /// frame classified as the single call classifies it, each result's frame still kept for
    /// drawing, the counts read back, and a negative kept count ending the results with an
    /// `ArgumentError` before any frame is read.
    func testFrameFeederFeedsAClassificationPipelineAndKeepsFrames() async throws {
        let (_, clip, classifier) = try sixFrameClipAndClassifier()
        let expected = try classifyEachFrame(of: clip, with: classifier)
        let pipeline = ClassificationPipeline(classifier: classifier, policy: .every, options: ClassificationOptions(top: 2))
        let feeder = FrameFeeder(reader: try VideoReader(source: clip.path), pipeline: pipeline,
                                 options: VideoFeed.Options(keptFrames: 6))
        feeder.start()
        var results: [FrameClassification] = [], kept: [Int] = []
        for try await result in pipeline.results {
            results.append(result)
            if let frame = feeder.takeFrame(result.index) { kept.append(frame.index) }
        }
        XCTAssertEqual(results.map(\.classifications), expected)
        XCTAssertEqual(kept, Array(0..<6))
        XCTAssertEqual(feeder.framesRead, 6)
        XCTAssertEqual(feeder.framesSkipped, 0)
        XCTAssertNil(feeder.error)

        let refused = ClassificationPipeline(classifier: classifier, policy: .every)
        let bad = FrameFeeder(reader: try VideoReader(source: clip.path), pipeline: refused, options: VideoFeed.Options(keptFrames: -1))
        bad.start()
        do {
            for try await _ in refused.results { XCTFail("no frame is read") }
            XCTFail("the results should end with the ArgumentError")
        } catch let error as ArgumentError {
            XCTAssertEqual(error.argument, "VideoFeed.Options.keptFrames")
        }
        XCTAssertEqual(bad.framesRead, 0)
    }

    /// A 6-frame H.264 clip of a panning photo in a temporary folder, and the random-weights
    /// `darknet.cfg` classifier of the zoo fixtures.
    private func sixFrameClipAndClassifier() throws -> (directory: URL, clip: URL, classifier: Classifier) {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mp4"), frames: 6, codec: VideoTestSupport.h264)
        let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
        let classifier = try Classifier(cfg: try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")),
                                        weights: try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")))
        return (directory, clip, classifier)
    }

    /// The blocking calls, frame by frame (synchronous, so the async test does not pick the
    /// async overload).
    private func classifyEachFrame(of clip: URL, with classifier: Classifier) throws -> [[Classification]] {
        let reader = try VideoReader(source: clip.path)
        var classes: [[Classification]] = []
        while let frame = try reader.nextFrame() { classes.append(try classifier.classify(frame.pixels, options: ClassificationOptions(top: 2))) }
        return classes
    }

    func testFramesThrowTheTypedErrorOfADamagedFile() async throws {
        let directory = try temporaryDirectory("video")
        let truncated = try VideoTestSupport.truncatedClip(in: directory)
        var frames = 0
        do throws(VideoError) {
            for try await _ in try VideoReader(source: truncated.path).frames { frames += 1 }
            XCTFail("a truncated file read to its end without an error")
        } catch {
            // `error` is a VideoError: the sequence's Failure type.
            guard case .readFailed(let source, let framesRead, _) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertEqual(source, truncated.path)
            XCTAssertEqual(framesRead, frames)
        }
        XCTAssertGreaterThan(frames, 3)
    }

    /// Cancelling the iterating task cancels the reader: a stream that would keep the read
    /// waiting for its 30 s time-out ends at once with `.cancelled`.
    func testCancellingTheTaskCancelsTheRead() throws {
        let (url, sender) = try VideoTestSupport.udpStream(in: try temporaryDirectory("video"), loops: 20)
        defer { sender.stop() }
        let reader = try VideoReader(source: url, options: VideoReaderOptions(timeout: 30))
        let progress = FrameCount()
        let ended = expectation(description: "the iteration ends")
        let task = Task {
            defer { ended.fulfill() }
            do throws(VideoError) {
                for try await _ in reader.frames { progress.add() }
                progress.end(nil)
            } catch {
                progress.end(error)
            }
        }
        let deadline = Date().addingTimeInterval(20)
        while progress.count < 5, Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThanOrEqual(progress.count, 5, "frames arrive from the stream")
        let cancelled = Date()
        task.cancel()
        wait(for: [ended], timeout: 10)
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 5, "cancelled, not timed out")
        XCTAssertEqual(progress.error, .cancelled(source: url))
    }

    /// A read error ends `results` with the `VideoError` once the frames decoded before the
    /// damage are processed; the feed counts what it read.
    func testFeedProcessesTheFramesBeforeTheDamageThenEndsWithTheError() throws {
        let directory = try temporaryDirectory("video")
        let truncated = try VideoTestSupport.truncatedClip(in: directory)
        let pipeline = DetectionPipeline(detector: try TinyYOLO.detector(), policy: .every)
        let feed = VideoFeed(reader: try VideoReader(source: truncated.path), pipeline: pipeline)
        feed.start()
        let (results, error) = collectResults(pipeline.results)
        guard case .readFailed(let source, let framesRead, _) = error as? VideoError else { return XCTFail("unexpected \(String(describing: error))") }
        XCTAssertEqual(source, truncated.path)
        XCTAssertEqual(results.map(\.index), Array(0..<framesRead), "every frame before the damage is processed")
        XCTAssertEqual(feed.framesRead, framesRead)
        XCTAssertEqual(feed.error, error as? VideoError)
    }

    func testFeedStopsAtItsDurationAndFrameLimitAndKeepsFrames() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mp4"), frames: 30, codec: VideoTestSupport.h264)
        let detector = try TinyYOLO.detector()

        let timed = DetectionPipeline(detector: detector, policy: .every)
        let (byDuration, noError) = collectResults(timed.process(try VideoReader(source: clip.path),
                                                          options: VideoFeed.Options(duration: .milliseconds(500))))
        XCTAssertNil(noError)
        XCTAssertEqual(byDuration.map(\.index), Array(0..<15), "frames before 0.5 s of stream time")

        let strided = DetectionPipeline(detector: detector, policy: .stride(4))
        let feed = VideoFeed(reader: try VideoReader(source: clip.path), pipeline: strided,
                             options: VideoFeed.Options(frameLimit: 10, keptFrames: 2))
        feed.start()
        let (limited, _) = collectResults(strided.results)
        XCTAssertEqual(limited.map(\.index), [0, 4, 8])
        XCTAssertEqual(feed.framesRead, 10)
        XCTAssertEqual(feed.framesSkipped, 7)
        XCTAssertNil(feed.takeFrame(0), "only the latest 2 kept frames stay")
        XCTAssertEqual(feed.takeFrame(8)?.index, 8)
        XCTAssertNil(feed.takeFrame(4), "taking a frame forgets the older ones")

        let invalid = DetectionPipeline(detector: detector, policy: .every)
        let (none, error) = collectResults(invalid.process(try VideoReader(source: clip.path), options: VideoFeed.Options(frameLimit: -1)))
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(error as? ArgumentError,
                       ArgumentError(argument: "VideoFeed.Options.frameLimit", value: "-1", expected: "an integer >= 0"))
    }

    func testInvalidReaderOptionsAreRefused() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mp4"), frames: 2, codec: VideoTestSupport.h264)
        for (options, name) in [(VideoReaderOptions(timeout: 0), "timeout"), (VideoReaderOptions(decoderThreads: 0), "decoderThreads"),
                                (VideoReaderOptions(maxPixels: -4), "maxPixels")] {
            XCTAssertThrowsError(try VideoReader(source: clip.path, options: options)) { error in
                guard case .cannotOpen(let source, let reason) = error as? VideoError else { return XCTFail("\(error)") }
                XCTAssertEqual(source, clip.path)
                XCTAssertTrue(reason.contains("VideoReaderOptions.\(name)"), reason)
            }
        }
    }
}

/// Frames counted by a task, read by the test thread.
private final class FrameCount: @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0
    private var ending: VideoError??

    var count: Int { lock.withLock { frames } }
    var error: VideoError? { lock.withLock { ending ?? nil } }
    func add() { lock.withLock { frames += 1 } }
    func end(_ error: VideoError?) { lock.withLock { ending = error } }
}
