@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// The live pipeline on real frames (crops of Darknet's dog.jpg panning) and the real
/// YOLOv3-tiny weights: order, policies, counts, and the same detections as single calls.
final class DetectionPipelineTests: XCTestCase {
    private func detector() throws -> Detector { try TinyYOLO.detector() }

    /// `count` BGRA frames: a 600x400 window moving 8 pixels right and 4 down per frame.
    private func frames(_ count: Int) throws -> [Frame] {
        let dog = try PlanarImage(contentsOf: TestPaths.sample("dog.jpg"))
        let whole = try dog.pixelBuffer(format: .bgra)
        return try (0..<count).map { i in
            Frame(pixels: try whole.cropped(to: PixelRegion(x: 8 * i, y: 4 * i, width: 600, height: 400)),
                  presentationTime: .seconds(Double(i) / 30))
        }
    }

    func testEveryProcessesEveryFrameInOrderWithTheSingleCallsDetections() async throws {
        let detector = try detector()
        let frames = try frames(6)
        let pipeline = DetectionPipeline(detector: detector, policy: .every)
        let results = try await pipeline.results(sending: frames)
        XCTAssertEqual(results.map(\.index), Array(0..<6))
        XCTAssertEqual(results.map(\.presentationTime), frames.map(\.presentationTime))
        for (result, frame) in zip(results, frames) {
            let single = try await detector.detect(frame.pixels)
            XCTAssertEqual(result.detections, single, "frame \(result.index)")
            XCTAssertGreaterThan(result.statistics.forwardTime, .zero)
            XCTAssertGreaterThanOrEqual(result.statistics.captureToResult, result.statistics.forwardTime)
        }
        XCTAssertEqual(results.last?.statistics.processed, 6)
        XCTAssertEqual(results.last?.statistics.received, 6)
        XCTAssertEqual(results.last?.statistics.dropped, 0)
        XCTAssertFalse(results.flatMap(\.detections).isEmpty)
        await XCTAssertThrowsErrorAsync(try await pipeline.send(frames[0]))
    }

    func testSubmitFromAThreadHoldsItBackUnderEvery() async throws {
        let frames = try frames(5)
        let pipeline = DetectionPipeline(detector: try detector(), policy: .every)
        let producer = Thread {
            for frame in frames { try? pipeline.submit(frame) }
            pipeline.finish()
        }
        producer.start()
        var indices: [Int] = []
        for try await result in pipeline.results { indices.append(result.index) }
        XCTAssertEqual(indices, Array(0..<5), "every frame, in order, none dropped")
        XCTAssertThrowsError(try pipeline.submit(frames[0]), "a finished pipeline takes no frame")
    }

    func testLatestDropsWaitingFramesAndEndsOnTheNewest() async throws {
        let pipeline = DetectionPipeline(detector: try detector(), policy: .latest)
        _ = try await offerAllAndCheckLatestPolicy(pipeline, try frames(10), index: \.index, statistics: \.statistics)
    }

    func testStrideOverAnAsyncSequence() async throws {
        let frames = try frames(7)
        let source = AsyncStream<Frame> { continuation in
            for frame in frames { continuation.yield(frame) }
            continuation.finish()
        }
        let pipeline = DetectionPipeline(detector: try detector(), policy: .stride(3))
        var indices: [Int] = []
        for try await result in pipeline.process(source) { indices.append(result.index) }
        XCTAssertEqual(indices, [0, 3, 6])
    }

    func testAFrameThatCannotBePreparedEndsTheResultsWithItsError() async throws {
        // A 2-channel network takes no frame (greyscale ones convert colour; 2 channels mean nothing).
        let cfg = "[net]\nwidth=32\nheight=32\nchannels=2\n[convolutional]\nfilters=4\nsize=3\npad=1\nactivation=leaky\n"
            + "[convolutional]\nfilters=6\nsize=1\nactivation=linear\n[yolo]\nmask=0\nanchors=10,14\nnum=1\nclasses=1\n"
        let network = try Network(spec: try NetworkSpec.parse(text: cfg, file: "gray.cfg"), randomSeed: 1)
        let pipeline = DetectionPipeline(detector: try Detector(network: network), policy: .every)
        let frame = try frames(1)[0]
        try await pipeline.send(frame)
        pipeline.finish()
        do {
            for try await _ in pipeline.results { XCTFail("no result expected") }
            XCTFail("the stream should end with an error")
        } catch let error as PixelBufferError {
            XCTAssertEqual(error, .unsupportedConversion(format: .bgra, channels: 2))
        }
    }
}

extension DetectionPipeline {
    /// Sends `frames` (waiting for room under `.every`), finishes, and collects every result.
    func results(sending frames: [Frame]) async throws -> [FrameResult] {
        let producer = Task {
            for frame in frames { try await send(frame) }
            finish()
        }
        var collected: [FrameResult] = []
        for try await result in results { collected.append(result) }
        try await producer.value
        return collected
    }
}
