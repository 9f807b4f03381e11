import Darknet
import DarknetEvaluation
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// The library's map scoring of YOLOv3-tiny's real detections on the hand-labelled set against
/// the Python references on the same detections: per-class AP and mAP for -points 0, 11 and 101
/// as a transcription of AlexeyAB's validate_detector_map computes them, and COCO's per-class AP
/// and mAP@[.5:.95] as pycocotools' COCOeval computes them.
final class MapReferenceTests: XCTestCase {
    func testRealDetectionsScoreAsTheReferencesScoreThem() throws {
        let data = try TestPaths.require(EvaluationFixtures.set.appendingPathComponent("eval.data"))
        let set = try ValidationSet(data: data)
        let detector = try TinyYOLO.detector(threads: 2)
        var input = ScoringInput(classes: 80)
        var warnings: [LabelWarning] = []
        for (index, path) in set.images.enumerated() {
            let image = try PlanarImage(contentsOf: URL(fileURLWithPath: path))
            let labels = try set.labels(ofImage: index, classes: 80)
            warnings += labels.warnings
            input.images.append(ScoringInput.Scored(
                width: image.width, height: image.height, truths: labels.boxes,
                difficult: try set.difficultLabels(ofImage: index, classes: 80)?.boxes ?? [],
                detections: try detector.detect(image, options: .meanAveragePrecision(letterbox: false))))
        }
        XCTAssertEqual(input.images.count, 22)
        XCTAssertEqual(input.images.map(\.truths.count).reduce(0, +), 93)
        XCTAssertEqual(input.images.map(\.difficult.count).reduce(0, +), 6)
        XCTAssertEqual(warnings.map(\.kind), [.outsideImage], "person-mirror's horse box")
        try assertMatchesReferences(input)
        try assertMatchesReferences(input, points: [101], options: MeanAveragePrecisionOptions(iouThreshold: 0.75, confidenceThreshold: 0.5))

        // The runner gives what the scorer gives on these detections.
        let run = try DetectorEvaluation(detector: detector, set: set, cfg: TestPaths.tinyCfg)
        var progress: [Int] = []
        let report = try run.meanAveragePrecision { progress.append($0) }
        XCTAssertEqual(progress, Array(1...22))
        let expected = try input.report()
        XCTAssertEqual(report.classes.map(\.averagePrecision), expected.classes.map(\.averagePrecision))
        XCTAssertEqual(report.classes.map(\.cocoAveragePrecision), expected.classes.map(\.cocoAveragePrecision))
        XCTAssertEqual(report.classes.map { [$0.truths, $0.detections, $0.truePositives, $0.falsePositives] },
                       expected.classes.map { [$0.truths, $0.detections, $0.truePositives, $0.falsePositives] })
        XCTAssertEqual(report.classes[16].name, "dog")
        XCTAssertEqual(report.meanAveragePrecision, expected.meanAveragePrecision)
        XCTAssertEqual(report.warnings, warnings)
        XCTAssertGreaterThan(report.cocoMeanAveragePrecision ?? 0, 0.1, "a real score, not an empty one")
    }
}
