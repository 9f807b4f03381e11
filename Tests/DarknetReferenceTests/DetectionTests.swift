import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// End-to-end detections against the original Darknet's (`darknet detect` logic through
/// libdarknet.so, recorded by `Tools/make-fixtures.sh`), with the real YOLOv3-tiny weights.
final class DetectionTests: XCTestCase {
    typealias Reference = DarknetDetectionRecord

    static let sampleImages = ["dog", "eagle", "giraffe", "horses", "kite", "person", "scream"]

    private static func makeDetector() throws -> Detector { try TinyYOLO.detector() }

    private func references(threshold: String) throws -> [Reference] {
        let url = try TestPaths.require(TestPaths.fixtures.appendingPathComponent("detect/thresh-\(threshold).jsonl"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        return try lines.map { try JSONDecoder().decode(Reference.self, from: Data($0.utf8)) }
    }

    func testSampleImagesAtThreshold050MatchDarknet() throws {
        try compareWithDarknet(threshold: 0.5, name: "0.5")
    }

    func testSampleImagesAtThreshold025MatchDarknet() throws {
        try compareWithDarknet(threshold: 0.25, name: "0.25")
    }

    private func compareWithDarknet(threshold: Float, name: String) throws {
        let detector = try Self.makeDetector()
        let references = try references(threshold: name)
        XCTAssertEqual(references.map { URL(fileURLWithPath: $0.image).deletingPathExtension().lastPathComponent }.sorted(),
                       Self.sampleImages.sorted(), "every sample image has a reference")
        var total = 0
        for reference in references {
            let image = try PlanarImage(contentsOf: TestPaths.packageRoot.appendingPathComponent(reference.image))
            XCTAssertEqual(image.width, reference.width)
            XCTAssertEqual(image.height, reference.height)
            let detections = try detector.detect(image, threshold: threshold)
            XCTAssertEqual(detections.count, reference.detections.count,
                           "\(reference.image): \(detections.map { "\($0.label) \($0.confidence)" }) vs \(reference.detections.map { "\($0.label) \($0.prob)" })")
            for (mine, theirs) in zip(detections, reference.detections) {
                let context = "\(reference.image) @\(name): \(mine.label) \(mine.rect) vs \(theirs.label) \(theirs.x),\(theirs.y),\(theirs.w),\(theirs.h)"
                XCTAssertEqual(mine.classIndex, theirs.class, context)
                XCTAssertEqual(mine.label, theirs.label, context)
                XCTAssertEqual(mine.confidence, theirs.prob, accuracy: 0.005, context)
                XCTAssertLessThanOrEqual(abs(mine.rect.left - theirs.x), 1, context)
                XCTAssertLessThanOrEqual(abs(mine.rect.top - theirs.y), 1, context)
                XCTAssertLessThanOrEqual(abs(mine.rect.right - (theirs.x + theirs.w)), 1, context)
                XCTAssertLessThanOrEqual(abs(mine.rect.bottom - (theirs.y + theirs.h)), 1, context)
            }
            total += detections.count
        }
        XCTAssertGreaterThan(total, 10, "the sample images hold many objects")
    }

    func testConcurrentDetectionsEqualSingleThreadedOnes() throws {
        let detector = try Self.makeDetector()
        let images = try Self.sampleImages.map { name in
            try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("\(name).jpg")))
        }
        let expected = try images.map { try detector.detect($0, threshold: 0.25) }
        let workers = 4
        let results = Locked([Result<[Detection], any Error>?](repeating: nil, count: workers * images.count))
        DispatchQueue.concurrentPerform(iterations: workers * images.count) { job in
            let index = (job * 3) % images.count  // interleave images across threads
            let result = Result { try detector.detect(images[index], threshold: 0.25) }
            results.withLock { $0[job] = result }
        }
        for job in 0..<(workers * images.count) {
            let index = (job * 3) % images.count
            XCTAssertEqual(try results.value[job]?.get(), expected[index], "job \(job), image \(Self.sampleImages[index])")
        }
    }

    func testNamesFileWithTooFewLabelsIsRefused() throws {
        let names = try temporaryDirectory("names").appendingPathComponent("three.names")
        try "a\nb\nc\n".write(to: names, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Detector(cfg: try TestPaths.require(TestPaths.tinyCfg),
                                          weights: try TestPaths.require(TestPaths.tinyWeights), names: names)) { error in
            XCTAssertEqual(error as? DetectorError, .tooFewLabels(file: names.path, labels: 3, classes: 80))
        }
    }
}
