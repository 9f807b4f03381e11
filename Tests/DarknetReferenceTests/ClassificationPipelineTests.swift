@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// The live classification pipeline on frames of Darknet's sample images (the random-weights
/// `darknet.cfg` of the zoo fixtures): every frame's classes equal the single call's, in order,
/// under each policy, with the statistics' counts; invalid options end the results.
final class ClassificationPipelineTests: XCTestCase {
    private let top3 = ClassificationOptions(top: 3)

    private func classifier() throws -> Classifier {
        let zoo = ZooFidelityTests.zoo
        return try Classifier(cfg: try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")),
                              weights: try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")),
                              names: try TestPaths.require(TestPaths.sample("imagenet.shortnames.list")))
    }

    /// `count` frames alternating between Darknet's sample photos, in alternating pixel formats.
    private func frames(_ count: Int) throws -> [Frame] {
        let photos = try ["dog", "eagle", "giraffe"].map { try PlanarImage(contentsOf: TestPaths.require(TestPaths.sample("\($0).jpg"))) }
        return try (0..<count).map { i in
            Frame(pixels: try photos[i % photos.count].pixelBuffer(format: i % 2 == 0 ? .bgra : .rgb),
                  presentationTime: .milliseconds(40 * i))
        }
    }

    /// The blocking call (a synchronous function, so an async test does not pick the async overload).
    private func singleCall(_ classifier: Classifier, _ frame: Frame) throws -> [Classification] {
        try classifier.classify(frame.pixels, options: top3)
    }

    private func collect(_ results: AsyncThrowingStream<FrameClassification, any Error>) async throws -> [FrameClassification] {
        var collected: [FrameClassification] = []
        for try await result in results { collected.append(result) }
        return collected
    }

    func testEveryClassifiesEveryFrameInOrderAsTheSingleCall() async throws {
        let classifier = try classifier()
        let frames = try frames(5)
        let pipeline = ClassificationPipeline(classifier: classifier, policy: .every, options: top3)
        let producer = Thread {
            for frame in frames { try? pipeline.submit(frame) }
            pipeline.finish()
        }
        producer.start()
        let results = try await collect(pipeline.results)
        XCTAssertEqual(results.map(\.index), Array(0..<5))
        XCTAssertEqual(results.map(\.presentationTime), frames.map(\.presentationTime))
        for (result, frame) in zip(results, frames) {
            XCTAssertEqual(result.classifications, try singleCall(classifier, frame), "frame \(result.index)")
            XCTAssertGreaterThan(result.statistics.forwardTime, .zero)
            XCTAssertGreaterThanOrEqual(result.statistics.captureToResult, result.statistics.forwardTime)
        }
        XCTAssertNotEqual(results[0].classifications, results[1].classifications, "different photos, different classes")
        let last = try XCTUnwrap(results.last?.statistics)
        XCTAssertEqual([last.received, last.processed, last.dropped], [5, 5, 0])
        XCTAssertThrowsError(try pipeline.submit(frames[0])) { error in
            XCTAssertTrue(error is ClassificationPipeline.Stopped, "\(error)")
        }
        XCTAssertFalse(pipeline.offer(frames[0]), "a finished pipeline takes no frame")
    }

    func testLatestDropsWaitingFramesAndEndsOnTheNewest() async throws {
        let classifier = try classifier()
        let frames = try frames(10)
        let pipeline = ClassificationPipeline(classifier: classifier, policy: .latest, options: top3)
        let results = try await offerAllAndCheckLatestPolicy(pipeline, frames, index: \.index, statistics: \.statistics)
        for result in results {
            XCTAssertEqual(result.classifications, try singleCall(classifier, frames[result.index]))
        }
    }

    func testStrideOverAnAsyncSequence() async throws {
        let frames = try frames(5)
        let source = AsyncStream<Frame> { continuation in
            for frame in frames { continuation.yield(frame) }
            continuation.finish()
        }
        let pipeline = ClassificationPipeline(classifier: try classifier(), policy: .stride(2), options: top3)
        let results = try await collect(pipeline.process(source))
        XCTAssertEqual(results.map(\.index), [0, 2, 4])
        XCTAssertEqual(results.map(\.classifications.count), [3, 3, 3])
    }

    /// A sequence that throws (a video that cannot be read further): the frames it gave are
    /// still classified, then the results end with its error.
    func testASequenceThatThrowsEndsTheResultsWithItsErrorAfterItsFrames() async throws {
        struct Damaged: Error {}
        let frames = try frames(3)
        let source = AsyncThrowingStream<Frame, any Error> { continuation in
            for frame in frames { continuation.yield(frame) }
            continuation.finish(throwing: Damaged())
        }
        let pipeline = ClassificationPipeline(classifier: try classifier(), policy: .every, options: top3)
        var indices: [Int] = []
        do {
            for try await result in pipeline.process(source) { indices.append(result.index) }
            XCTFail("the results should end with the sequence's error")
        } catch is Damaged {
            XCTAssertEqual(indices, [0, 1, 2])
        }
    }

    func testInvalidOptionsOrStrideEndTheResultsWithTheArgumentError() async throws {
        let classifier = try classifier()
        for (policy, options, name) in [(FramePolicy.every, ClassificationOptions(top: -1), "ClassificationOptions.top"),
                                        (.stride(0), top3, "FramePolicy.stride")] {
            let pipeline = ClassificationPipeline(classifier: classifier, policy: policy, options: options)
            XCTAssertFalse(pipeline.offer(try frames(1)[0]), "\(name): no frame taken")
            do {
                _ = try await collect(pipeline.results)
                XCTFail("\(name): the results should end with an error")
            } catch let error as ArgumentError {
                XCTAssertTrue(error.description.contains(name), error.description)
            }
        }
    }

    /// `{"frame", "time", "predictions", "statistics"}`, as `classify-video --json` prints the
    /// first three; decoding gives the result back.
    func testResultsAreCodableWithTheCommandLinesKeys() throws {
        let statistics = FrameStatistics(captureToResult: .milliseconds(30), preprocessTime: .milliseconds(2),
                                         forwardTime: .milliseconds(25), postprocessTime: .microseconds(50),
                                         received: 4, processed: 3, dropped: 1, processedFPS: 28.5, inputFPS: 30)
        let result = FrameClassification(index: 3, presentationTime: .milliseconds(120),
                                         classifications: [Classification(classIndex: 208, label: "Labrador retriever", probability: 0.5)],
                                         statistics: statistics)
        let json = try JSONEncoder().encode(result)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["frame", "time", "predictions", "statistics"])
        XCTAssertEqual(object["frame"] as? Int, 3)
        XCTAssertEqual(object["time"] as? Double, 0.12)
        let prediction = try XCTUnwrap((object["predictions"] as? [[String: Any]])?.first)
        XCTAssertEqual(prediction["class"] as? Int, 208)
        XCTAssertEqual(prediction["label"] as? String, "Labrador retriever")
        XCTAssertEqual(try JSONDecoder().decode(FrameClassification.self, from: json), result)
    }
}
