import Darknet
import DarknetImage
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// The `Codable` results against what `swift-darknet` prints with `--json` on the same input:
/// every field of the command's objects is in the encoding, under the same name, with the same
/// value (to the digits the command prints).
final class ResultJSONTests: XCTestCase {
    func testDetectJSONFieldsAreTheDetectionsEncoding() throws {
        let dog = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let printed = try SwiftDarknetTool.run(["detect"] + TestPaths.tinyModelArguments() + ["--json", dog.path])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let line = try jsonObject(try XCTUnwrap(printed.lines.first))
        let detector = try Detector(cfg: TestPaths.tinyCfg, weights: TestPaths.tinyWeights,
                                    names: TestPaths.cocoNames)
        let detections = try detector.detect(try PlanarImage(contentsOf: dog), options: DetectionOptions())
        XCTAssertFalse(detections.isEmpty)
        try assertPrinted(line["detections"], isIn: try encoded(detections), decimals: ["prob": 4])
    }

    func testClassifyJSONFieldsAreTheClassificationsEncoding() throws {
        let zoo = TestPaths.packageRoot.appendingPathComponent("Fixtures/generated/zoo")
        let cfg = try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg"))
        let weights = try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights"))
        let dog = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let printed = try SwiftDarknetTool.run(["classify", "--cfg", cfg.path, "--weights", weights.path, "--json", "--top", "4", dog.path])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let line = try jsonObject(try XCTUnwrap(printed.lines.first))
        let predictions = try Classifier(cfg: cfg, weights: weights).classify(try PlanarImage(contentsOf: dog),
                                                                           options: ClassificationOptions(top: 4))
        XCTAssertEqual(predictions.count, 4)
        try assertPrinted(line["predictions"], isIn: try encoded(predictions), decimals: ["prob": 6])
    }

    /// `video --json --track` against `DetectionPipeline.process` with tracking: frame for frame,
    /// the printed lines are the `FrameResult` encodings without their statistics.
    func testVideoJSONLinesAreTheFrameResultsEncoding() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("clip.mp4"), frames: 8, codec: VideoTestSupport.h264)
        let printed = try SwiftDarknetTool.run(["video"] + TestPaths.tinyModelArguments() + ["--json", "--every", "--track", clip.path])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let lines = try printed.lines.map(jsonObject)
        XCTAssertEqual(lines.count, 8)

        let detector = try Detector(cfg: TestPaths.tinyCfg, weights: TestPaths.tinyWeights,
                                    names: TestPaths.cocoNames)
        let pipeline = DetectionPipeline(detector: detector, policy: .every, tracking: TrackerOptions())
        let (results, error) = collectResults(pipeline.process(try VideoReader(source: clip.path)))
        XCTAssertNil(error)
        XCTAssertEqual(results.count, 8)
        XCTAssertTrue(results.contains { !$0.tracks.isEmpty }, "the dog is tracked")
        let encodedResults = try encoded(results)
        try assertPrinted(lines, isIn: encodedResults, decimals: ["prob": 4, "time": 6])
        XCTAssertNotNil(((encodedResults as? [Any])?.first as? [String: Any])?["statistics"])
        let decoded = try JSONDecoder().decode([FrameResult].self, from: try JSONEncoder().encode(results))
        XCTAssertEqual(decoded.map(\.detections), results.map(\.detections))
        XCTAssertEqual(decoded.map(\.tracks), results.map(\.tracks))
        XCTAssertEqual(decoded.map(\.presentationTime), results.map(\.presentationTime))
    }

    // MARK: Helpers

    private func encoded(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value))
    }

    /// Every field of `printed` is in `encoded` with the same value; numbers under a key of
    /// `decimals` are compared to that many decimals, as the command prints them.
    private func assertPrinted(_ printed: Any?, isIn encoded: Any, decimals: [String: Int], path: String = "",
                               file: StaticString = #filePath, line: UInt = #line) throws {
        switch printed {
        case let object as [String: Any]:
            let other = try XCTUnwrap(encoded as? [String: Any], "\(path): not an object", file: file, line: line)
            for (key, value) in object {
                guard let counterpart = other[key] else {
                    XCTFail("\(path).\(key): printed, but not in the encoding", file: file, line: line)
                    continue
                }
                if let places = decimals[key], let number = value as? Double {
                    let encodedNumber = try XCTUnwrap(counterpart as? Double, "\(path).\(key)", file: file, line: line)
                    XCTAssertEqual(number, encodedNumber, accuracy: 0.5 * pow(10, -Double(places)) + 1e-9,
                                   "\(path).\(key)", file: file, line: line)
                } else {
                    try assertPrinted(value, isIn: counterpart, decimals: decimals, path: "\(path).\(key)", file: file, line: line)
                }
            }
        case let array as [Any]:
            let other = try XCTUnwrap(encoded as? [Any], "\(path): not an array", file: file, line: line)
            XCTAssertEqual(array.count, other.count, "\(path): entries", file: file, line: line)
            for (index, (a, b)) in zip(array, other).enumerated() {
                try assertPrinted(a, isIn: b, decimals: decimals, path: "\(path)[\(index)]", file: file, line: line)
            }
        case let text as String:
            XCTAssertEqual(text, encoded as? String, path, file: file, line: line)
        case let number as NSNumber:
            XCTAssertEqual(number, encoded as? NSNumber, path, file: file, line: line)
        default:
            XCTFail("\(path): unexpected \(String(describing: printed))", file: file, line: line)
        }
    }
}
