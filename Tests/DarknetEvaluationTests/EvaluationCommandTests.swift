import Darknet
import DarknetEvaluation
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `swift-darknet map`, `valid` and `recall` as commands: the JSON report, the usage and the
/// input errors (each naming the file and line), and bounded memory over 1,000 images.
final class EvaluationCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try temporaryDirectory("evaluation")
    }

    private func model() throws -> [String] {
        ["--cfg", try TestPaths.require(TestPaths.tinyCfg).path,
         "--weights", try TestPaths.require(TestPaths.tinyWeights).path]
    }

    /// A set of `images` list lines (paths relative to the folder) over a few copies of
    /// `dog.jpg` scaled to 160x120, with labels; `cfg` YOLOv3-tiny at `size`.
    private func smallSet(images: Int, size: Int = 416, labels: String = "16 0.29 0.66 0.23 0.56\n") throws -> (data: URL, cfg: URL) {
        let dog = try PlanarImage(contentsOf: TestPaths.require(TestPaths.sample("dog.jpg")))
        let small = try dog.resized(width: 160, height: 120)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("set"), withIntermediateDirectories: true)
        for i in 0..<4 {
            try small.write(to: folder.appendingPathComponent("set/dog\(i).png"))
            try writeText(labels, to: "set/dog\(i).txt", in: folder)
        }
        try writeText((0..<images).map { "set/dog\($0 % 4).png\n" }.joined(), to: "valid.txt", in: folder)
        let names = try TestPaths.require(TestPaths.cocoNames).path
        let data = try writeText("classes = 80\nnames = \(names)\nvalid = valid.txt\n", to: "small.data", in: folder)
        let cfg = try EvaluationFixtures.editedTinyCfg(in: folder, name: "tiny-\(size).cfg") {
            $0.replacingOccurrences(of: "width=416", with: "width=\(size)").replacingOccurrences(of: "height=416", with: "height=\(size)")
        }
        return (data, cfg)
    }

    func testJSONReportIsTheCodableReport() throws {
        let (data, _) = try smallSet(images: 3)
        let run = try SwiftDarknetTool.run(["map", "--data", data.path, "--json", "--points", "101"] + model(), in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(MeanAveragePrecisionReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.images, 3)
        XCTAssertEqual(report.options.points, 101)
        XCTAssertEqual(report.classes.count, 80)
        XCTAssertEqual(report.classes[16].name, "dog")
        XCTAssertEqual(report.classes[16].truths, 3)
        XCTAssertEqual(report.classes[16].averagePrecision, 1, "the dog is found in each copy")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        for key in ["map", "coco_map", "tp", "fp", "fn", "precision", "recall", "f1", "average_iou", "detections_count",
                    "unique_truth_count", "classes", "options", "warnings", "classes_with_objects", "map_classes_with_objects"] {
            XCTAssertNotNil(object[key], "key \(key)")
        }
        // Only the dog is labelled: Darknet's mAP divides its AP by 80, the added value by 1.
        XCTAssertEqual(report.meanAveragePrecision, 1.0 / 80, accuracy: 1e-12)
        XCTAssertEqual(object["classes_with_objects"] as? Int, 1)
        XCTAssertEqual(object["map_classes_with_objects"] as? Double, 1)
        let text = try SwiftDarknetTool.run(["map", "--data", data.path, "--points", "101"] + model(), in: folder)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("\n mean average precision (mAP@0.50) = 0.012500, or 1.25 % \n"
                                           + " mean average precision (mAP@0.50) over the 1 of 80 classes with labelled objects = 1.000000, or 100.00 % \n"
                                           + " COCO mean average precision"), text.stdout)
        let classes = try XCTUnwrap(object["classes"] as? [[String: Any]])
        XCTAssertEqual(Set(classes[16].keys), ["class_id", "name", "ap", "truths", "detections", "tp", "fp", "average_iou", "coco_ap"])
        XCTAssertNil(classes[0]["coco_ap"], "no person labelled: no COCO AP")
    }

    func testInputErrorsNameTheFileAndLine() throws {
        let (data, _) = try smallSet(images: 2)
        try writeText("16 0.29 0.66 0.23 0.56\n80 0.5 0.5 0.1 0.1\n", to: "set/dog1.txt", in: folder)
        var run = try SwiftDarknetTool.run(["map", "--data", data.path] + model(), in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "swift-darknet: \(folder.appendingPathComponent("set/dog1.txt").path):2: class '80' is not a class"
                       + " index of the network (0...79)\n")
        try writeText("16 0.29 nan 0.23 0.56\n", to: "set/dog1.txt", in: folder)
        run = try SwiftDarknetTool.run(["map", "--data", data.path] + model(), in: folder)
        XCTAssertTrue(run.stderr.hasSuffix("set/dog1.txt:1: y_center is 'nan', expected a finite number\n"), run.stderr)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("set/dog1.txt"))
        run = try SwiftDarknetTool.run(["recall", "--data", data.path] + model(), in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("set/dog1.png: no label file (tried "), run.stderr)

        try writeText("classes = 80\nnames = \(TestPaths.cocoNames.path)\n", to: "novalid.data", in: folder)
        run = try SwiftDarknetTool.run(["valid", "--data", "novalid.data"] + model(), in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "swift-darknet: \(folder.appendingPathComponent("novalid.data").path): no 'valid=' line: it names"
                       + " the list of images to score (one path a line)\n")
        try writeText("set/dog0.png\nset/missing.png\n", to: "valid.txt", in: folder)
        run = try SwiftDarknetTool.run(["map", "--data", data.path] + model(), in: folder)
        XCTAssertTrue(run.stderr.contains("valid.txt:2: 'set/missing.png' not found (tried "), run.stderr)
        try writeText("broken", to: "set/broken.png", in: folder)
        try writeText("", to: "set/broken.txt", in: folder)
        try writeText("set/dog0.png\nset/broken.png\n", to: "valid.txt", in: folder)
        run = try SwiftDarknetTool.run(["map", "--data", data.path] + model(), in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("set/broken.png"), run.stderr)
    }

    func testUsageMistakes() throws {
        var run = try SwiftDarknetTool.run(["map"] + model())
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("swift-darknet: missing --data"), run.stderr)
        run = try SwiftDarknetTool.run(["map", "--data", "x.data", "--points", "1"] + model())
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("swift-darknet: --points must be 0 or at least 2"), run.stderr)
        run = try SwiftDarknetTool.run(["valid", "--data", "x.data", "--names", "coco.names"] + model())
        XCTAssertEqual(run.status, 2)
        run = try SwiftDarknetTool.run(["recall", "--data", "x.data", "image.jpg"] + model())
        XCTAssertEqual(run.status, 2)
        for command in ["map", "valid", "recall"] {
            run = try SwiftDarknetTool.run([command, "--help"])
            XCTAssertEqual(run.status, 0)
            XCTAssertTrue(run.stdout.hasPrefix("usage: swift-darknet \(command) --data FILE"), run.stdout)
        }
    }

    func testCOCOResultsAreValidJSONForAnyFileName() throws {
        let (_, _) = try smallSet(images: 0)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("set/dog0.png"),
                                         to: folder.appendingPathComponent("set/000000000042.png"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent("set/dog0.png"),
                                         to: folder.appendingPathComponent("set/COCO_val2014_000000000073.png"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent("set/dog0.png"),
                                         to: folder.appendingPathComponent("set/say \"cheese\"\\.png"))
        try writeText("set/000000000042.png\nset/COCO_val2014_000000000073.png\nset/say \"cheese\"\\.png\n",
                                     to: "valid.txt", in: folder)
        let data = try writeText("classes = 80\nnames = \(TestPaths.cocoNames.path)\nvalid = valid.txt\n"
                                                + "eval = coco\nresults = out\n", to: "coco.data", in: folder)
        let run = try SwiftDarknetTool.run(["valid", "--data", data.path] + model(), in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let entries = try AlexeyABOutputTests.cocoEntries(Data(contentsOf: folder.appendingPathComponent("out/coco_results.json")))
        let ids = entries.map { "\($0["image_id"]!)" }
        XCTAssertEqual(Set(ids), ["42", "73", "say \"cheese\"\\"])
        XCTAssertTrue(entries.contains { $0["category_id"] as? Int == 18 }, "dog is class 16, COCO's category 18")
        for entry in entries {
            let box = entry["bbox"] as! [Double]
            XCTAssertTrue(box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= 160.0001 && box[1] + box[3] <= 120.0001, "\(box)")
        }

        try writeText("set/dog0.png\n", to: "valid.txt", in: folder)
        let voc = try writeText("classes = 80\nnames = \(TestPaths.cocoNames.path)\nvalid = valid.txt\n",
                                               to: "voc.data", in: folder)
        XCTAssertEqual(try SwiftDarknetTool.run(["valid", "--data", voc.path, "--out", "run1_"] + model(), in: folder).status, 0)
        let dogs = try String(contentsOf: folder.appendingPathComponent("results/run1_dog.txt"), encoding: .utf8)
        XCTAssertTrue(dogs.hasPrefix("dog0 "), dogs)
        for row in AlexeyABOutputTests.rows(dogs) {
            let (left, top, right, bottom) = (Double(row[2])!, Double(row[3])!, Double(row[4])!, Double(row[5])!)
            XCTAssertTrue(left >= 1 && top >= 1 && right <= 160 && bottom <= 120, "1-based, clamped: \(row)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path).count, 80)
    }

    /// 1,000 images (a list naming four 160x120 PNGs over and over) through a 64x64 YOLOv3-tiny:
    /// the peak memory is about what 100 images take, and at most two images are decoded at once.
    func testThousandImagesInBoundedMemory() throws {
        let (data, cfg) = try smallSet(images: 1000, size: 64)
        let arguments = ["map", "--data", data.path, "--cfg", cfg.path, "--weights",
                         try TestPaths.require(TestPaths.tinyWeights).path]
        var peaks = [0, 0]
        for (i, count) in [100, 1000].enumerated() {
            try writeText((0..<count).map { "set/dog\($0 % 4).png\n" }.joined(), to: "valid.txt", in: folder)
            let run = try SwiftDarknetTool.run(arguments, in: folder)
            peaks[i] = run.peakResidentBytes
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.contains("unique_truth_count = \(count)"), run.stdout)
        }
        print("map peak memory: 100 images \(peaks[0] >> 20) MiB, 1000 images \(peaks[1] >> 20) MiB")
        XCTAssertGreaterThan(peaks[0], 0)
        XCTAssertLessThan(peaks[1] - peaks[0], 24 << 20, "1,000 decoded images would take 220 MiB")

        // In the library: the image after the one being scored is the only one decoded ahead.
        try writeText((0..<40).map { "set/dog\($0 % 4).png\n" }.joined(), to: "valid.txt", in: folder)
        let set = try ValidationSet(data: data, workingDirectory: folder)
        let loads = LoadCounter()
        let evaluation = DetectorEvaluation(detector: try Detector(cfg: cfg, weights: TestPaths.tinyWeights), set: set,
                                            letterbox: false) { path in
            loads.increment()
            return try PlanarImage(contentsOf: URL(fileURLWithPath: path))
        }
        var ahead = 0
        _ = try evaluation.meanAveragePrecision { scored in ahead = max(ahead, loads.value - scored) }
        XCTAssertLessThanOrEqual(ahead, 1)
        XCTAssertEqual(loads.value, 40)
    }
}

private final class LoadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
