import Darknet
import DarknetEvaluation
import Foundation
import TestSupport
import XCTest

/// Images with truths and detections, scored by the library and by the Python references
/// (Tools/evaluation/reference_map.py: a literal transcription of AlexeyAB's
/// validate_detector_map, and pycocotools' COCOeval) on exactly the same numbers.
struct ScoringInput {
    struct Scored {
        var width: Int
        var height: Int
        var truths: [GroundTruthBox]
        var difficult: [GroundTruthBox] = []
        /// Darknet's order.
        var detections: [Detection]
    }

    var classes: Int
    var images: [Scored] = []

    /// A detection of `classIndex` at `confidence` with a relative box.
    static func detection(_ classIndex: Int, _ confidence: Float, _ x: Float, _ y: Float, _ w: Float, _ h: Float) -> Detection {
        let box = RelativeBox(x: x, y: y, width: w, height: h)
        return Detection(classIndex: classIndex, label: String(classIndex), confidence: confidence, objectness: confidence,
                         box: box, rect: box.pixelRect(imageWidth: 100, imageHeight: 100))
    }

    static func truth(_ classIndex: Int, _ x: Float, _ y: Float, _ w: Float, _ h: Float) -> GroundTruthBox {
        GroundTruthBox(classIndex: classIndex, box: RelativeBox(x: x, y: y, width: w, height: h))
    }

    /// The library's report for `options`.
    func report(_ options: MeanAveragePrecisionOptions = MeanAveragePrecisionOptions()) throws -> MeanAveragePrecisionReport {
        var scorer = try MeanAveragePrecisionScorer(classes: classes, options: options)
        for image in images {
            try scorer.add(image.detections, truths: image.truths, difficult: image.difficult,
                           imageWidth: image.width, imageHeight: image.height)
        }
        return scorer.report()
    }

    /// What the references compute (`alexeyab` for each of `points`, `coco`).
    func reference(points: [Int], options: MeanAveragePrecisionOptions = MeanAveragePrecisionOptions()) throws -> Reference {
        func number(_ value: Float) -> String { String(format: "%.9g", Double(value)) }
        func boxes(_ truths: [GroundTruthBox]) -> [[Any]] {
            truths.map { [$0.classIndex, number($0.box.x), number($0.box.y), number($0.box.width), number($0.box.height)] }
        }
        let json: [String: Any] = [
            "classes": classes, "iou_thresh": number(options.iouThreshold), "thresh": number(options.confidenceThreshold),
            "points": points,
            "images": images.map { image in
                ["width": image.width, "height": image.height, "truths": boxes(image.truths), "difficult": boxes(image.difficult),
                 "detections": image.detections.map { d in
                     [d.classIndex, number(d.confidence), number(d.box.x), number(d.box.y), number(d.box.width), number(d.box.height)]
                 }] as [String: Any]
            },
        ]
        return try withTemporaryDirectory("scoring") { folder in
            let input = folder.appendingPathComponent("input.json")
            try JSONSerialization.data(withJSONObject: json).write(to: input)
            let python = try TestPaths.require(EvaluationFixtures.set.appendingPathComponent("python"))
            let result = try ChildProcess.run(python, [try TestPaths.require(EvaluationFixtures.referenceScript).path, input.path])
            guard result.status == 0 else { throw ReferenceFailed(stderr: result.stderr) }
            return try JSONDecoder().decode(Reference.self, from: Data(result.stdout.utf8))
        }
    }

    struct ReferenceFailed: Error, CustomStringConvertible {
        let stderr: String
        var description: String { "reference_map.py failed: \(stderr)" }
    }

    /// reference_map.py's output.
    struct Reference: Decodable {
        struct AlexeyAB: Decodable {
            let ap: [String: [Double]]
            let map: [String: Double]
            let detections_count: Int
            let unique_truth_count: Int
            let tp: Int
            let fp: Int
            let tp_per_class: [Int]
            let fp_per_class: [Int]
            let average_iou: Float
        }
        struct COCO: Decodable {
            let map: Double
            let ap: [Double?]
        }
        let alexeyab: AlexeyAB
        let coco: COCO?
    }
}

extension XCTestCase {
    /// Fails unless the library's reports for each of `points` equal the references' numbers:
    /// AlexeyAB's per-class AP and mAP, counts and average IoU exactly as the transcription
    /// computes them (the same float and double operations), COCO's within 1e-12.
    func assertMatchesReferences(_ input: ScoringInput, points: [Int] = [0, 11, 101],
                                 options: MeanAveragePrecisionOptions = MeanAveragePrecisionOptions(),
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try input.reference(points: points, options: options)
        for p in points {
            var pointOptions = options
            pointOptions.points = p
            let report = try input.report(pointOptions)
            let ab = reference.alexeyab
            XCTAssertEqual(report.classes.map(\.averagePrecision), ab.ap[String(p)], "points \(p): per-class AP", file: file, line: line)
            XCTAssertEqual(report.meanAveragePrecision, ab.map[String(p)], "points \(p): mAP", file: file, line: line)
            XCTAssertEqual(report.detections, ab.detections_count, file: file, line: line)
            XCTAssertEqual(report.truths, ab.unique_truth_count, file: file, line: line)
            XCTAssertEqual(report.truePositives, ab.tp, file: file, line: line)
            XCTAssertEqual(report.falsePositives, ab.fp, file: file, line: line)
            XCTAssertEqual(report.classes.map(\.truePositives), ab.tp_per_class, file: file, line: line)
            XCTAssertEqual(report.classes.map(\.falsePositives), ab.fp_per_class, file: file, line: line)
            XCTAssertEqual(report.averageIoU, ab.average_iou, file: file, line: line)
            if let coco = reference.coco {
                XCTAssertEqual(report.cocoMeanAveragePrecision ?? -1, coco.map, accuracy: 1e-12, "COCO mAP", file: file, line: line)
                for (k, expected) in coco.ap.enumerated() {
                    if let expected {
                        XCTAssertEqual(report.classes[k].cocoAveragePrecision ?? -1, expected, accuracy: 1e-12, "COCO AP of \(k)",
                                       file: file, line: line)
                    } else {
                        XCTAssertNil(report.classes[k].cocoAveragePrecision, "class \(k) has no truths", file: file, line: line)
                    }
                }
            }
        }
    }
}
