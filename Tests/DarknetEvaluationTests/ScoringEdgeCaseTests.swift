import Darknet
import DarknetEvaluation
import TestSupport
import XCTest

/// AlexeyAB's scoring rules on small sets whose results can be worked out by hand, each also
/// checked against the Python references (a transcription of validate_detector_map and
/// pycocotools).
final class ScoringEdgeCaseTests: XCTestCase {
    private typealias Input = ScoringInput
    private let d = ScoringInput.detection
    private let t = ScoringInput.truth

    func testAveragePrecisionByPointsWorkedOutByHand() throws {
        // Two objects; ranked: hit, miss, hit. Precision 1, 1/2, 2/3 at recall 1/2, 1/2, 1.
        let input = Input(classes: 1, images: [Input.Scored(width: 100, height: 100,
            truths: [t(0, 0.25, 0.25, 0.2, 0.2), t(0, 0.75, 0.75, 0.2, 0.2)],
            detections: [d(0, 0.9, 0.25, 0.25, 0.2, 0.2), d(0, 0.8, 0.5, 0.5, 0.1, 0.1), d(0, 0.7, 0.75, 0.75, 0.2, 0.2)])])
        XCTAssertEqual(try input.report().meanAveragePrecision, 0.5 * (2.0 / 3) + 0.5 * 1, accuracy: 1e-15)
        XCTAssertEqual(try input.report(MeanAveragePrecisionOptions(points: 11)).meanAveragePrecision,
                       (6 + 5 * (2.0 / 3)) / 11, accuracy: 1e-15)
        XCTAssertEqual(try input.report(MeanAveragePrecisionOptions(points: 101)).meanAveragePrecision,
                       (51 + 50 * (2.0 / 3)) / 101, accuracy: 1e-15)
        try assertMatchesReferences(input)
    }

    func testIoUExactlyAtTheThresholdIsNoMatch() throws {
        let truth = t(0, 0.5, 0.5, 0.5, 0.5)
        let half = d(0, 0.9, 0.375, 0.5, 0.25, 0.5)   // the left half of the truth: IoU 0.125 / 0.25
        XCTAssertEqual(half.box.alexeyABIntersectionOverUnion(truth.box), 0.5, "binary fractions: exactly 0.5")
        let more = d(0, 0.9, 0.3828125, 0.5, 0.265625, 0.5)
        XCTAssertGreaterThan(more.box.alexeyABIntersectionOverUnion(truth.box), 0.5)
        let exact = Input(classes: 1, images: [Input.Scored(width: 64, height: 64, truths: [truth], detections: [half])])
        XCTAssertEqual(try exact.report().classes[0].averagePrecision, 0, "a match needs IoU greater than the threshold")
        XCTAssertEqual(try exact.report().falsePositives, 1)
        let above = Input(classes: 1, images: [Input.Scored(width: 64, height: 64, truths: [truth], detections: [more])])
        XCTAssertEqual(try above.report().classes[0].averagePrecision, 1)
        try assertMatchesReferences(exact)
        try assertMatchesReferences(above)
    }

    func testTiesInConfidenceKeepTheOrderDetectionsCameIn() throws {
        let truth = t(0, 0.5, 0.5, 0.4, 0.4)
        let hit = d(0, 0.5, 0.5, 0.5, 0.4, 0.4), miss = d(0, 0.5, 0.1, 0.1, 0.1, 0.1)
        let missFirst = Input(classes: 1, images: [Input.Scored(width: 100, height: 100, truths: [truth], detections: [miss, hit])])
        let hitFirst = Input(classes: 1, images: [Input.Scored(width: 100, height: 100, truths: [truth], detections: [hit, miss])])
        XCTAssertEqual(try missFirst.report().meanAveragePrecision, 0.5, "precision 0 then 1/2 at recall 1")
        XCTAssertEqual(try hitFirst.report().meanAveragePrecision, 1)
        // Across images too: image order breaks the tie.
        let twoImages = Input(classes: 1, images: [
            Input.Scored(width: 100, height: 100, truths: [], detections: [miss]),
            Input.Scored(width: 100, height: 100, truths: [truth], detections: [hit])])
        XCTAssertEqual(try twoImages.report().meanAveragePrecision, 0.5)
        for input in [missFirst, hitFirst, twoImages] { try assertMatchesReferences(input) }
    }

    func testClassWithoutObjectsScoresZeroAndCountsInTheMean() throws {
        let input = Input(classes: 3, images: [Input.Scored(width: 100, height: 100, truths: [t(0, 0.5, 0.5, 0.4, 0.4)],
            detections: [d(0, 0.9, 0.5, 0.5, 0.4, 0.4), d(2, 0.8, 0.5, 0.5, 0.4, 0.4)])])
        let report = try input.report()
        XCTAssertEqual(report.classes.map(\.averagePrecision), [1, 0, 0])
        XCTAssertEqual(report.meanAveragePrecision, 1.0 / 3, "Darknet divides by every class")
        XCTAssertEqual(report.classes[2].falsePositives, 1)
        XCTAssertEqual(report.classes[0].cocoAveragePrecision ?? 0, 1, accuracy: 1e-15)
        XCTAssertEqual(report.classes.map(\.cocoAveragePrecision).dropFirst(), [nil, nil], "COCO leaves classes without objects out")
        XCTAssertEqual(report.cocoMeanAveragePrecision ?? 0, 1, accuracy: 1e-15)
        XCTAssertEqual(report.classesWithObjects, 1)
        XCTAssertEqual(report.meanAveragePrecisionOverClassesWithObjects, 1, "the one class with an object")
        try assertMatchesReferences(input)
    }

    /// The extra line: Darknet's mAP divides by all 4 classes; over the 2 with objects (APs 1
    /// and 1/2: a miss ranked before the hit) it is 3/4. A class with detections but no object
    /// (3) and one with nothing (1) are both left out; every AlexeyAB line is still printed.
    func testMeanOverClassesWithObjectsLeavesTheOthersOut() throws {
        let input = Input(classes: 4, images: [Input.Scored(width: 100, height: 100,
            truths: [t(0, 0.5, 0.5, 0.4, 0.4), t(2, 0.25, 0.25, 0.2, 0.2)],
            detections: [d(0, 0.9, 0.5, 0.5, 0.4, 0.4), d(2, 0.8, 0.75, 0.75, 0.1, 0.1), d(2, 0.7, 0.25, 0.25, 0.2, 0.2),
                         d(3, 0.6, 0.5, 0.5, 0.4, 0.4)])])
        let report = try input.report()
        XCTAssertEqual(report.classes.map(\.averagePrecision), [1, 0, 0.5, 0])
        XCTAssertEqual(report.meanAveragePrecision, 1.5 / 4, "Darknet's: every class")
        XCTAssertEqual(report.classesWithObjects, 2)
        XCTAssertEqual(report.meanAveragePrecisionOverClassesWithObjects, 0.75)
        let lines = report.darknetText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let mAP = try XCTUnwrap(lines.firstIndex(of: " mean average precision (mAP@0.50) = 0.375000, or 37.50 % "), report.darknetText)
        XCTAssertEqual(lines[mAP + 1], " mean average precision (mAP@0.50) over the 2 of 4 classes with labelled objects = 0.750000, or 75.00 % ")
        XCTAssertTrue(lines[mAP + 2].hasPrefix(" COCO mean average precision (mAP@[.50:.95], 101 recall points) = "), lines[mAP + 2])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        XCTAssertEqual(json["classes_with_objects"] as? Int, 2)
        XCTAssertEqual(json["map_classes_with_objects"] as? Double, 0.75)
        try assertMatchesReferences(input)

        let unlabelled = Input(classes: 2, images: [Input.Scored(width: 10, height: 10, truths: [], detections: [d(1, 0.9, 0.5, 0.5, 0.4, 0.4)])])
        let none = try unlabelled.report()
        XCTAssertEqual(none.classesWithObjects, 0)
        XCTAssertNil(none.meanAveragePrecisionOverClassesWithObjects)
        XCTAssertTrue(none.darknetText.contains(" mean average precision (mAP@0.50) over the 0 of 2 classes with labelled objects = none (no labelled objects) \n"),
                      none.darknetText)
    }

    func testNoDetectionsAtAll() throws {
        let input = Input(classes: 2, images: [Input.Scored(width: 100, height: 100, truths: [t(1, 0.5, 0.5, 0.4, 0.4)], detections: []),
                                               Input.Scored(width: 50, height: 80, truths: [], detections: [])])
        let report = try input.report()
        XCTAssertEqual(report.detections, 0)
        XCTAssertEqual(report.meanAveragePrecision, 0)
        XCTAssertEqual(report.cocoMeanAveragePrecision, 0)
        XCTAssertEqual(report.falseNegatives, 1)
        XCTAssertNil(report.precision, "no detection above the threshold: Darknet prints nan")
        XCTAssertEqual(report.recall, 0)
        XCTAssertNil(report.f1Score)
        XCTAssertTrue(report.darknetText.contains(" for conf_thresh = 0.25, precision = -nan, recall = 0.00, F1-score = -nan \n"),
                      report.darknetText)
        let reference = try input.reference(points: [0])
        XCTAssertEqual(reference.alexeyab.map["0"], 0)
        XCTAssertNil(reference.coco, "pycocotools cannot load an empty result list")
        let empty = Input(classes: 2, images: [Input.Scored(width: 10, height: 10, truths: [], detections: [])])
        XCTAssertNil(try empty.report().cocoMeanAveragePrecision, "no objects: no COCO mAP")
    }

    func testDifficultObjectsDropTheirDetectionsFromTheRanking() throws {
        let input = Input(classes: 1, images: [Input.Scored(width: 100, height: 100, truths: [t(0, 0.25, 0.25, 0.2, 0.2)],
            difficult: [t(0, 0.75, 0.75, 0.2, 0.2)],
            detections: [d(0, 0.9, 0.75, 0.75, 0.2, 0.2), d(0, 0.8, 0.25, 0.25, 0.2, 0.2)])])
        let report = try input.report()
        XCTAssertEqual(report.detections, 1, "the detection of the difficult object is not ranked")
        XCTAssertEqual(report.meanAveragePrecision, 1)
        XCTAssertEqual(report.falsePositives, 1, "but Darknet still counts it as a false positive at -thresh")
        try assertMatchesReferences(input)
    }

    func testAnObjectFoundTwiceIsOneTruePositive() throws {
        // In Darknet's order, a low-confidence box first, then a confident one, both on the object:
        // the AP ranks the confident one first (a hit), but at -thresh the object was already
        // claimed by the earlier box of the same image, so Darknet counts the confident one as FP.
        let input = Input(classes: 1, images: [Input.Scored(width: 100, height: 100, truths: [t(0, 0.5, 0.5, 0.4, 0.4)],
            detections: [d(0, 0.1, 0.5, 0.5, 0.4, 0.38), d(0, 0.9, 0.5, 0.5, 0.4, 0.4)])])
        let report = try input.report()
        XCTAssertEqual(report.meanAveragePrecision, 1)
        XCTAssertEqual(report.truePositives, 0)
        XCTAssertEqual(report.falsePositives, 1)
        try assertMatchesReferences(input)
    }

    func testLabelsOutsideTheImageAreScoredAsWritten() throws {
        // The truth spans x 0.8...1.2; the detection 0.8...1.1. As written their IoU is 0.75 (the
        // part outside the image counts in the union), clipped it would be 2/3: Darknet's is used.
        let input = Input(classes: 1, images: [Input.Scored(width: 100, height: 100, truths: [t(0, 1.0, 0.5, 0.4, 0.4)],
            detections: [d(0, 0.9, 0.95, 0.5, 0.3, 0.4)])])
        XCTAssertEqual(input.images[0].detections[0].box.alexeyABIntersectionOverUnion(input.images[0].truths[0].box), 0.75,
                       accuracy: 1e-6)
        XCTAssertEqual(try input.report(MeanAveragePrecisionOptions(iouThreshold: 0.7)).meanAveragePrecision, 1)
        try assertMatchesReferences(input)
    }

    func testSeededRandomSetsAgreeWithTheReferences() throws {
        var random = TestRandom(seed: 42)
        for round in 0..<4 {
            var input = Input(classes: 4)
            for _ in 0..<25 {
                var image = Input.Scored(width: 200 + random.next(below: 400), height: 150 + random.next(below: 300), truths: [], detections: [])
                for _ in 0..<random.next(below: 6) {
                    image.truths.append(t(random.next(below: 4), random.unit(), random.unit(), 0.05 + 0.4 * random.unit(), 0.05 + 0.4 * random.unit()))
                }
                if random.next(below: 4) == 0, let truth = image.truths.first { image.difficult.append(truth); image.truths.removeFirst() }
                for truth in image.truths + image.difficult where random.next(below: 5) != 0 {
                    let b = truth.box
                    let jitter = 0.25 * random.unit() - 0.125
                    // Confidences on a coarse grid, so ties happen.
                    image.detections.append(d(random.next(below: 8) == 0 ? random.next(below: 4) : truth.classIndex, Float(1 + random.next(below: 20)) / 20,
                                              b.x + jitter * b.width, b.y - jitter * b.height, b.width * (1 + jitter), b.height))
                }
                for _ in 0..<random.next(below: 5) {
                    image.detections.append(d(random.next(below: 4), Float(1 + random.next(below: 20)) / 20, random.unit(), random.unit(),
                                              0.05 + 0.3 * random.unit(), 0.05 + 0.3 * random.unit()))
                }
                input.images.append(image)
            }
            let options = MeanAveragePrecisionOptions(iouThreshold: [0.5, 0.3, 0.75, 0.5][round],
                                                      confidenceThreshold: [0.25, 0.5, 0.1, 0.7][round])
            try assertMatchesReferences(input, options: options)
        }
    }
}
