import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// YOLOv1 (`yolov1`, `yolov1-tiny`, `t1.test`: `[local]` and `[detection]`) against Debian's
/// Darknet: every layer on the same input tensor with Darknet's random weights, and `darknet
/// detect`'s results through `Detector`. References: `Tools/make-fixtures-debian.sh`.
final class YoloV1Tests: XCTestCase {
    static let debian = TestPaths.fixtures.appendingPathComponent("debian")

    private func compareLayers(_ name: String, input: String, expectAtLeast: Int,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let d = Self.debian
        let compared = try LayerReference.compare(cfg: d.appendingPathComponent("cfg/\(name).cfg"),
                                                  weights: d.appendingPathComponent("weights/\(name).weights"),
                                                  input: d.appendingPathComponent("input/\(input).bin"),
                                                  reference: d.appendingPathComponent(name), expectAtLeast: expectAtLeast,
                                                  file: file, line: line)
        XCTAssertTrue(compared.contains { $0.type == "detection" }, "the [detection] head is compared", file: file, line: line)
        print(String(format: "%@: largest difference from Darknet %.2g", name, compared.map(\.difference).max() ?? 0))
    }

    func testYoloV1TinyEveryLayer() throws { try compareLayers("yolov1-tiny-224", input: "dog-224x224", expectAtLeast: 16) }

    /// yolov1 at 192 (3 x 3 locations of [local]; at 448 its weights alone take 462 MB).
    func testYoloV1EveryLayer() throws {
        let compared = try LayerReference.compare(
            cfg: Self.debian.appendingPathComponent("cfg/yolov1-192.cfg"),
            weights: Self.debian.appendingPathComponent("weights/yolov1-192.weights"),
            input: Self.debian.appendingPathComponent("input/dog-192x192.bin"),
            reference: Self.debian.appendingPathComponent("yolov1-192"), expectAtLeast: 20)
        XCTAssertTrue(compared.contains { $0.type == "local" }, "the [local] layer is compared")
        print(String(format: "yolov1-192: largest difference from Darknet %.2g", compared.map(\.difference).max() ?? 0))
    }

    func testT1TestEveryLayer() throws { try compareLayers("t1.test", input: "dog-224x224", expectAtLeast: 10) }

    /// `darknet detect` at threshold 0.2 on dog.jpg: the same detections, in the same order. With
    /// random weights the boxes are Darknet's arithmetic on meaningless values (its YOLOv1 boxes
    /// are in image pixels and get multiplied by the image size once more when printed).
    func testYoloV1TinyDetections() throws { try compareDetections("yolov1-tiny-224") }

    func testYoloV1Detections() throws { try compareDetections("yolov1-192") }

    /// YOLOv1's own command, `darknet yolo test` (`DetectionOptions.yoloTest`): the image
    /// stretched, NMS 0.4, and boxes relative to the image, so that they are drawn where the
    /// network puts them instead of on the image's border as `darknet detect` draws them.
    func testYoloV1TinyYoloTest() throws {
        let boxes = try compareDetections("yolov1-tiny-224", reference: "yolo-test-thresh-0.2", options: .yoloTest)
        XCTAssertGreaterThan(boxes.filter { $0.rect.left > 0 && $0.rect.right < 767 }.count, boxes.count / 4,
                             "yolo test's boxes lie inside the image, not on its border")
    }

    func testYoloV1YoloTest() throws {
        try compareDetections("yolov1-192", reference: "yolo-test-thresh-0.2", options: .yoloTest)
    }

    @discardableResult
    private func compareDetections(_ name: String, reference suffix: String = "thresh-0.2",
                                   options: DetectionOptions = DetectionOptions(threshold: 0.2, nmsThreshold: 0.45),
                                   file: StaticString = #filePath, line: UInt = #line) throws -> [Detection] {
        let d = Self.debian
        let url = try TestPaths.require(d.appendingPathComponent("detect/\(name)-\(suffix).json"), file: file, line: line)
        let reference = try JSONDecoder().decode(DetectionTests.Reference.self, from: Data(contentsOf: url))
        let detector = try Detector(cfg: try TestPaths.require(d.appendingPathComponent("cfg/\(name).cfg"), file: file, line: line),
                                    weights: try TestPaths.require(d.appendingPathComponent("weights/\(name).weights"), file: file, line: line),
                                    names: try TestPaths.require(TestPaths.sample("voc.names"), file: file, line: line))
        let image = try PlanarImage(contentsOf: TestPaths.packageRoot.appendingPathComponent(reference.image))
        let detections = try detector.detect(image, options: options)
        XCTAssertGreaterThanOrEqual(reference.detections.count, 3, "\(name): Darknet finds something to compare", file: file, line: line)
        XCTAssertEqual(detections.count, reference.detections.count, "\(name) detections", file: file, line: line)
        // The decoding itself is exact on Darknet's own layer output (DebianLayerKernelTests); here
        // the forward pass feeds it, within LayerReference.tolerance (1e-3) of Darknet's. With
        // random weights the confidences reach 10 (compared to 0.1 %), and most printed edges lie
        // 10^3 to 10^5 pixels outside the image: Darknet applies the image size twice, so float
        // rounding of 1e-6 in a box value moves such an edge by pixels. Edges inside the image
        // (what `draw_detections` clamps and draws) are compared to 1 px; the others are not.
        func close(_ mine: Int, _ theirs: Int, size: Int) -> Bool {
            (0...size).contains(theirs) ? abs(mine - theirs) <= 1 : true
        }
        var compared = 0
        for (k, (mine, theirs)) in zip(detections, reference.detections).enumerated() {
            let (w, h) = (reference.width, reference.height)
            let right = theirs.x + theirs.w, bottom = theirs.y + theirs.h
            compared += [theirs.x, right].filter { (0...w).contains($0) }.count + [theirs.y, bottom].filter { (0...h).contains($0) }.count
            let same = mine.classIndex == theirs.class && mine.label == theirs.label
                && abs(mine.confidence - theirs.prob) <= 1e-3 * max(1, abs(theirs.prob))
                && close(mine.rect.left, theirs.x, size: w) && close(mine.rect.right, right, size: w)
                && close(mine.rect.top, theirs.y, size: h) && close(mine.rect.bottom, bottom, size: h)
            XCTAssertTrue(same, "\(name) #\(k): mine \(mine.label) \(mine.confidence) \(mine.rect), Darknet's \(theirs.label) \(theirs.prob) \(theirs.x),\(theirs.y),\(theirs.w),\(theirs.h)",
                          file: file, line: line)
        }
        XCTAssertGreaterThan(compared, reference.detections.count, "\(name): edges inside the image are compared", file: file, line: line)
        return detections
    }
}
