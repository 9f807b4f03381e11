import Darknet
import Foundation
import TestSupport
import XCTest

/// Arguments outside what an API accepts are `ArgumentError`s naming the argument, never
/// silently clamped (a thread count of 0 used to run on 1, a stride of 0 on every frame).
final class ArgumentErrorTests: XCTestCase {
    static let cfg = TestPaths.darknetCfg.appendingPathComponent("yolov3-tiny.cfg")

    func assertArgumentError(_ argument: String, _ value: String, _ expected: String, file: StaticString = #filePath,
                             line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? ArgumentError, ArgumentError(argument: argument, value: value, expected: expected),
                           file: file, line: line)
        }
    }

    func testThreadsAndSessionPolicyAreCheckedBeforeAnythingLoads() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/model.cfg")
        assertArgumentError("threads", "0", "an integer >= 1") { _ = try Detector(cfg: missing, weights: missing, threads: 0) }
        assertArgumentError("threads", "-2", "an integer >= 1") { _ = try Classifier(cfg: missing, weights: missing, threads: -2) }
        assertArgumentError("SessionPolicy.maximumSessions", "0", "an integer >= 1") {
            _ = try Detector(cfg: missing, weights: missing, sessionPolicy: SessionPolicy(maximumSessions: 0))
        }
        assertArgumentError("SessionPolicy.idleTimeout", "-1.0", "a number of seconds >= 0") {
            _ = try Classifier(cfg: missing, weights: missing, sessionPolicy: SessionPolicy(idleTimeout: -1))
        }
        let error = ArgumentError(argument: "threads", value: "0", expected: "an integer >= 1")
        XCTAssertEqual(error.description, "'threads': invalid value 0, expected an integer >= 1")
        XCTAssertEqual(error.localizedDescription, error.description)
    }

    func testDetectAndClassifyRejectInvalidOptions() throws {
        let network = try Network(cfg: Self.cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        let detector = try Detector(network: network)
        let image = try PlanarImage(width: 64, height: 48, channels: 3, filledWith: 0.5)
        assertArgumentError("DetectionOptions.maximumDetections", "-1", "an integer >= 0") {
            _ = try detector.detect(image, options: DetectionOptions(maximumDetections: -1))
        }
        assertArgumentError("DetectionOptions.threshold", "nan", "a number") {
            _ = try detector.detect(image, options: DetectionOptions(threshold: .nan))
        }
        assertArgumentError("TilingOptions.overlap", "0.99", "a fraction in 0...0.95") {
            _ = try detector.detect(image, options: DetectionOptions(tiling: TilingOptions(overlap: 0.99)))
        }
        assertArgumentError("TilingOptions.tileSize width", "0", "an integer >= 1") {
            _ = try detector.detect(image, options: DetectionOptions(tiling: TilingOptions(tileSize: .pixels(width: 0, height: 10))))
        }
        let pixels = try PixelBuffer(format: .gray, width: 8, height: 8, bytes: [UInt8](repeating: 9, count: 64))
        assertArgumentError("DetectionOptions.maximumDetections", "-3", "an integer >= 0") {
            _ = try detector.detect(pixels, options: DetectionOptions(maximumDetections: -3))
        }
        let classifier = try Classifier(network: network)
        assertArgumentError("ClassificationOptions.top", "-1", "an integer >= 0") { _ = try classifier.classify(image, top: -1) }
        XCTAssertEqual(try classifier.classify(image, options: ClassificationOptions(top: 0)), [])
    }

    func testAPipelineWithAStrideBelowOneTakesNoFrameAndEndsWithTheError() throws {
        let detector = try Detector(network: try Network(cfg: Self.cfg, weights: try TestPaths.require(TestPaths.tinyWeights)))
        let pipeline = DetectionPipeline(detector: detector, policy: .stride(0))
        let pixels = try PixelBuffer(format: .gray, width: 8, height: 8, bytes: [UInt8](repeating: 9, count: 64))
        XCTAssertFalse(pipeline.offer(Frame(pixels: pixels, presentationTime: .zero)))
        let ended = expectation(description: "results end")
        let outcome = Outcome()
        Task {
            do {
                for try await _ in pipeline.results { outcome.results += 1 }
            } catch {
                outcome.error = error
            }
            ended.fulfill()
        }
        wait(for: [ended], timeout: 30)
        XCTAssertEqual(outcome.results, 0)
        XCTAssertEqual(outcome.error as? ArgumentError,
                       ArgumentError(argument: "FramePolicy.stride", value: "0", expected: "an integer >= 1"))
    }
}

private final class Outcome: @unchecked Sendable {
    var results = 0
    var error: (any Error)?
}
