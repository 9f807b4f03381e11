import Darknet
import DarknetEvaluation
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `swift-darknet map`, `recall` and `valid` on the hand-labelled set against what AlexeyAB's
/// own Darknet printed and wrote for it (Tools/evaluation/alexeyab/, made by hand outside the
/// repository): the same lines, character for character; the same result lines in the same
/// order, scores within 5e-6 and edges within 0.005 px (float sums in another order: the
/// largest differences seen are 2e-6 and 0.002 px).
final class AlexeyABOutputTests: XCTestCase {
    static let recorded = TestPaths.packageRoot.appendingPathComponent("Tools/evaluation/alexeyab")

    override func setUpWithError() throws {
        try Self.checkSetPixels()
    }

    struct OtherSetPixels: Error {}

    /// Fails unless the set's images have the pixels AlexeyAB scored.
    static func checkSetPixels() throws {
        let list = try String(contentsOf: TestPaths.require(EvaluationFixtures.set.appendingPathComponent("valid.txt")),
                              encoding: .utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for path in list.split(separator: "\n") {
            let image = try PlanarImage(contentsOf: URL(fileURLWithPath: String(path)))
            let plane = image.width * image.height
            for i in 0..<plane {
                for c in 0..<3 {
                    hash = (hash ^ UInt64(UInt8((image.pixels[c * plane + i] * 255).rounded()))) &* 0x100_0000_01b3
                }
            }
        }
        let expected = try String(contentsOf: recorded.appendingPathComponent("dataset-pixels.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let actual = String(hash, radix: 16).leftPadded(to: 16)
        guard actual == expected else {
            XCTFail("the evaluation set's pixels (\(actual)) are not those AlexeyAB scored (\(expected)): Tools/make-evaluation-fixtures.sh"
                    + " made other images (another ffmpeg?); record AlexeyAB's output again (Tools/evaluation/alexeyab/README.md)")
            throw OtherSetPixels()
        }
    }

    private func mapLines(cfg: URL, _ options: [String] = []) throws -> [String] {
        let run = try SwiftDarknetTool.run(["map", "--data", EvaluationFixtures.set.appendingPathComponent("eval.data").path,
                                        "--cfg", cfg.path, "--weights", TestPaths.require(TestPaths.tinyWeights).path,
                                        "--threads", "2"] + options)
        XCTAssertEqual(run.status, 0, run.stderr)
        // AlexeyAB's lines, then the two this tool adds: the mAP over the classes with objects
        // (the set labels 11 of the 80: 0.067254 against 0.489122 for the original cfg) and COCO's.
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let added = lines.suffix(2)
        XCTAssertEqual(added.count, 2, run.stdout)
        XCTAssertTrue(added.first?.contains(" over the 11 of 80 classes with labelled objects = ") == true, run.stdout)
        XCTAssertTrue(added.last?.hasPrefix(" COCO mean average precision") == true, run.stdout)
        return Array(lines.dropLast(2))
    }

    private func recordedLines(_ name: String) throws -> [String] {
        try String(contentsOf: Self.recorded.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    func testMapPrintsAlexeyABsLines() throws {
        let folder = try temporaryDirectory("evaluation")
        let original = try TestPaths.require(TestPaths.tinyCfg), alexeyAB = try EvaluationFixtures.alexeyABTinyCfg(in: folder)
        XCTAssertEqual(try mapLines(cfg: original), try recordedLines("map-yolov3-tiny.txt"),
                       "the original cfg: AlexeyAB's batch-norm epsilon differs, its printed numbers do not")
        XCTAssertEqual(try mapLines(cfg: alexeyAB), try recordedLines("map-yolov3-tiny-ab.txt"))
        XCTAssertEqual(try mapLines(cfg: alexeyAB, ["--points", "11"]), try recordedLines("map-yolov3-tiny-ab-points11.txt"))
        XCTAssertEqual(try mapLines(cfg: alexeyAB, ["--points", "101", "--iou-thresh", "0.75", "--thresh", "0.5"]),
                       try recordedLines("map-yolov3-tiny-ab-points101-iou0.75-thresh0.5.txt"))
    }

    func testRecallPrintsAlexeyABsLines() throws {
        let folder = try temporaryDirectory("evaluation")
        let run = try SwiftDarknetTool.run(["recall", "--data", EvaluationFixtures.set.appendingPathComponent("eval.data").path,
                                        "--cfg", try EvaluationFixtures.alexeyABTinyCfg(in: folder).path,
                                        "--weights", TestPaths.require(TestPaths.tinyWeights).path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").map(String.init), try recordedLines("recall-yolov3-tiny-ab.txt"))
    }

    func testValidWritesAlexeyABsFiles() throws {
        let folder = try temporaryDirectory("evaluation")
        let cfg = try EvaluationFixtures.alexeyABTinyCfg(in: folder)
        let data = try String(contentsOf: EvaluationFixtures.set.appendingPathComponent("eval.data"), encoding: .utf8)
        let voc = try writeText(data.replacingOccurrences(of: "eval = coco", with: "eval = voc"), to: "voc.data", in: folder)
        for (dataFile, results) in [(EvaluationFixtures.set.appendingPathComponent("eval.data"), "coco"), (voc, "voc")] {
            let run = try SwiftDarknetTool.run(["valid", "--data", dataFile.path, "--cfg", cfg.path, "--results", folder.appendingPathComponent(results).path,
                                            "--weights", TestPaths.require(TestPaths.tinyWeights).path, "--threads", "2"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        for name in ["dog", "horse"] {
            let ours = try String(contentsOf: folder.appendingPathComponent("voc/comp4_det_test_\(name).txt"), encoding: .utf8)
            let theirs = try String(contentsOf: Self.recorded.appendingPathComponent("valid-yolov3-tiny-ab-comp4_det_test_\(name).txt"),
                                    encoding: .utf8)
            let (a, b) = (Self.rows(ours), Self.rows(theirs))
            XCTAssertEqual(a.count, b.count, name)
            for (x, y) in zip(a, b) {
                XCTAssertEqual(x.first, y.first, "image ids in Darknet's order")
                XCTAssertEqual(Double(x[1])!, Double(y[1])!, accuracy: 5e-6, "\(x) vs \(y)")
                for i in 2..<6 { XCTAssertEqual(Double(x[i])!, Double(y[i])!, accuracy: 0.005, "\(x) vs \(y)") }
            }
        }
        let ours = try Self.cocoEntries(Data(contentsOf: folder.appendingPathComponent("coco/coco_results.json")))
        let theirs = try Self.cocoEntries(Data(contentsOf: Self.recorded.appendingPathComponent("valid-yolov3-tiny-ab-coco_results-head.json")))
        XCTAssertEqual(ours.count, 2913)
        for (x, y) in zip(ours, theirs) {
            XCTAssertEqual(x["image_id"] as? String, "dog", "names without a number are strings (Darknet writes 0)")
            XCTAssertEqual(x["category_id"] as? Int, y["category_id"] as? Int)
            XCTAssertEqual(x["score"] as! Double, y["score"] as! Double, accuracy: 5e-6)
            for (p, q) in zip(x["bbox"] as! [Double], y["bbox"] as! [Double]) { XCTAssertEqual(p, q, accuracy: 0.005) }
        }
        XCTAssertEqual(theirs.count, 151)
    }

    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    static func cocoEntries(_ data: Data) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]], "coco_results.json is a JSON array")
    }
}

extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
