import Darknet
import DarknetImage
import Foundation
import XCTest

/// The README's usage example, compiled and run by the test build so it cannot rot.
final class ReadmeExampleTests: XCTestCase {
    func testReadmeUsageExample() throws {
        let cfgURL = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("yolov3-tiny.cfg"))
        let weightsURL = try TestPaths.require(TestPaths.tinyWeights)
        let namesURL = try TestPaths.require(TestPaths.darknetData.appendingPathComponent("coco.names"))
        let photoURL = try TestPaths.require(TestPaths.darknetData.appendingPathComponent("dog.jpg"))
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // README example begins
        let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL)
        let image = try Image(contentsOf: photoURL)
        for d in try detector.detect(image, threshold: 0.5) {
            print(d.label, d.confidence, d.rect)   // rect in original-image pixels
        }
        // README example ends

        XCTAssertEqual(printed.count, 5)
        XCTAssertTrue(printed[0].hasPrefix("dog 0.56"), printed[0])
    }
}
