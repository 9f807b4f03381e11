@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// End-to-end YOLOv2 detections ([region] heads) against the original Darknet's: the
/// `darknet detect` logic (letterbox, `get_network_boxes`, `do_nms_sort`) through
/// libdarknet.so, recorded by `Tools/make-fixtures-zoo.sh` with random weights on Darknet's
/// sample images (three for the large YOLOv2).
final class RegionDetectionTests: XCTestCase {
    func testYoloV2TinyMatchesDarknet() throws {
        try compare(name: "yolov2-tiny", cfg: "yolov2-tiny-416", threshold: "0.2", names: "coco.names")
    }

    func testYoloV2At416MatchesDarknet() throws {
        try compare(name: "yolov2-416", cfg: "yolov2-416", threshold: "0.2", names: "coco.names", images: 3)
    }

    func testYoloV2TinyVOCMatchesDarknet() throws {
        try compare(name: "yolov2-tiny-voc", cfg: "yolov2-tiny-voc-416", threshold: "0.3", names: "voc.names")
    }

    private static func matches(_ mine: Detection, _ theirs: DetectionTests.Reference.Item) -> Bool {
        mine.classIndex == theirs.class && mine.label == theirs.label && abs(mine.confidence - theirs.prob) <= 0.005
            && abs(mine.rect.left - theirs.x) <= 1 && abs(mine.rect.top - theirs.y) <= 1
            && abs(mine.rect.right - (theirs.x + theirs.w)) <= 1 && abs(mine.rect.bottom - (theirs.y + theirs.h)) <= 1
    }

    private func compare(name: String, cfg: String, threshold: String, names: String,
                         images: Int = DetectionTests.sampleImages.count, file: StaticString = #filePath, line: UInt = #line) throws {
        let zoo = ZooFidelityTests.zoo
        let detector = try Detector(cfg: try TestPaths.require(zoo.appendingPathComponent("cfg/\(cfg).cfg")),
                                    weights: try TestPaths.require(zoo.appendingPathComponent("weights/\(name).weights")),
                                    names: try TestPaths.require(TestPaths.sample(names)))
        let url = try TestPaths.require(zoo.appendingPathComponent("detect/\(name)-thresh-\(threshold).jsonl"))
        let references = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(DetectionTests.Reference.self, from: Data($0.utf8))
        }
        XCTAssertEqual(references.count, images, file: file, line: line)
        var total = 0
        for reference in references {
            let image = try PlanarImage(contentsOf: TestPaths.packageRoot.appendingPathComponent(reference.image))
            let detections = try detector.detect(image, threshold: Float(threshold)!)
            XCTAssertEqual(detections.count, reference.detections.count,
                           "\(reference.image): \(detections.map { "\($0.label) \($0.confidence)" }) vs \(reference.detections.map { "\($0.label) \($0.prob)" })",
                           file: file, line: line)
            // Random weights saturate many boxes to nearly the same probability; float rounding
            // (1e-5 here) may swap two of them in the sorted output. So every Darknet detection
            // must have its own match (class, probability within 0.005, edges within 1 px), and
            // the order must be Darknet's except between probabilities less than 1e-4 apart.
            var unused = Array(detections.indices)
            for theirs in reference.detections {
                let context = "\(name) \(reference.image): Darknet's \(theirs.label) \(theirs.prob) \(theirs.x),\(theirs.y),\(theirs.w),\(theirs.h)"
                guard let k = unused.firstIndex(where: { Self.matches(detections[$0], theirs) }) else {
                    XCTFail("\(context) has no match among \(detections.map { "\($0.label) \($0.confidence) \($0.rect)" })",
                            file: file, line: line)
                    continue
                }
                unused.remove(at: k)
            }
            for (mine, theirs) in zip(detections, reference.detections) where !Self.matches(mine, theirs) {
                XCTAssertEqual(mine.confidence, theirs.prob, accuracy: 1e-4,
                               "\(name) \(reference.image): order differs from Darknet's beyond a near-tie: \(mine.label) \(mine.rect) vs \(theirs.label)",
                               file: file, line: line)
            }
            total += detections.count
        }
        XCTAssertGreaterThanOrEqual(total, 5, "the random network finds something to compare", file: file, line: line)
    }
}
