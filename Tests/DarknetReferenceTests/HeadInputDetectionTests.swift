import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `Detector.detect(headInputs:imageWidth:imageHeight:options:)`: the inputs of a forward pass's
/// detection heads, handed back as another runtime would hand them, give the detections of the
/// whole pass (which `DetectionTests` and `RegionDetectionTests` compare with Darknet's).
final class HeadInputDetectionTests: XCTestCase {
    /// The inputs of `detector`'s heads for `image`, from a session that keeps every output.
    private func headInputs(of detector: Detector, for image: PlanarImage, letterbox: Bool = true) throws -> [[Float]] {
        let (input, _) = try detector.prepare(image, letterbox: letterbox)
        let session = InferenceSession(network: detector.network, retaining: .all)
        try session.forward(input.pixels)
        return try detector.network.plan.detectionHeads.map { try session.output(ofLayer: $0.index - 1).values }
    }

    private func assertSameDetections(_ detector: Detector, images: [String], options: DetectionOptions,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        for name in images {
            let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample(name)))
            let whole = try detector.detect(image, options: options)
            XCTAssertFalse(whole.isEmpty, "\(name): a comparison of no detections proves little", file: file, line: line)
            let inputs = try headInputs(of: detector, for: image, letterbox: options.letterbox)
            // A detector of its own: no pass of the whole network has left the heads' outputs in its session.
            let fromHeads = try Detector(network: detector.network, labels: detector.labels)
                .detect(headInputs: inputs, imageWidth: image.width, imageHeight: image.height, options: options)
            XCTAssertEqual(fromHeads, whole, name, file: file, line: line)
        }
    }

    /// Two `[yolo]` heads, letterboxed and stretched.
    func testYoloV3TinyHeadInputsGiveTheWholePassDetections() throws {
        let detector = try TinyYOLO.detector()
        XCTAssertEqual(detector.headInputShapes, [TensorShape(channels: 255, height: 13, width: 13),
                                                  TensorShape(channels: 255, height: 26, width: 26)])
        let images = ["dog.jpg", "person.jpg", "horses.jpg"]
        try assertSameDetections(detector, images: images, options: DetectionOptions(threshold: 0.25))
        try assertSameDetections(detector, images: images, options: DetectionOptions(threshold: 0.25, letterbox: false))
    }

    /// One `[region]` head (YOLOv2-tiny, random weights of Darknet's reference fixtures).
    func testRegionHeadInputsGiveTheWholePassDetections() throws {
        let zoo = ZooFidelityTests.zoo
        let detector = try Detector(cfg: try TestPaths.require(zoo.appendingPathComponent("cfg/yolov2-tiny-416.cfg")),
                                    weights: try TestPaths.require(zoo.appendingPathComponent("weights/yolov2-tiny.weights")),
                                    names: try TestPaths.require(TestPaths.sample("coco.names")))
        XCTAssertEqual(detector.headInputShapes, [TensorShape(channels: 425, height: 13, width: 13)])
        try assertSameDetections(detector, images: ["dog.jpg", "eagle.jpg"], options: DetectionOptions(threshold: 0.2))
    }

    /// YOLOv1's `[detection]` head, whose boxes come out in the image's pixels (YOLOv1-tiny at 224,
    /// random weights of the Darknet reference fixtures).
    func testDetectionLayerHeadInputsGiveTheWholePassDetections() throws {
        let debian = YoloV1Tests.debian
        let detector = try Detector(cfg: try TestPaths.require(debian.appendingPathComponent("cfg/yolov1-tiny-224.cfg")),
                                    weights: try TestPaths.require(debian.appendingPathComponent("weights/yolov1-tiny-224.weights")),
                                    names: try TestPaths.require(TestPaths.sample("voc.names")))
        XCTAssertEqual(detector.network.plan.detectionHeads.map(\.spec.kind.sectionName), ["detection"])
        try assertSameDetections(detector, images: ["dog.jpg", "person.jpg"], options: DetectionOptions(threshold: 0.2))
    }

    func testHeadInputsNotOnePerHeadOfItsSizeAreRefused() throws {
        let detector = try TinyYOLO.detector()
        let sizes = detector.headInputShapes.map(\.count)
        func refusal(_ inputs: [[Float]], width: Int = 768, options: DetectionOptions = DetectionOptions()) -> String? {
            do {
                _ = try detector.detect(headInputs: inputs, imageWidth: width, imageHeight: 576, options: options)
                return nil
            } catch {
                XCTAssertTrue(error is ArgumentError, "\(type(of: error))")
                return "\(error)"
            }
        }
        let zeros = sizes.map { [Float](repeating: 0, count: $0) }
        XCTAssertEqual(refusal([zeros[0]]),
                       "'headInputs': invalid value 1 tensor, expected 2, one per detection head (layers 16, 23)")
        XCTAssertEqual(refusal([zeros[0], Array(zeros[1].dropLast())]),
                       "'headInputs[1]': invalid value 172379 values, expected 172380, the 26 x 26 x 255 input of layer 23")
        XCTAssertEqual(refusal(zeros, width: 0), "'imageWidth': invalid value 0, expected an integer >= 1")
        XCTAssertEqual(refusal(zeros, options: DetectionOptions(tiling: TilingOptions())),
                       "'DetectionOptions.tiling': invalid value set, expected nil: head inputs come from one network input")
        XCTAssertEqual(try detector.detect(headInputs: zeros, imageWidth: 768, imageHeight: 576), [],
                       "zero logits: every objectness is 0.5, not above the threshold")
    }

    /// A session that ran only the heads runs the whole network again on the next image.
    func testAWholePassAfterHeadInputsIsUnchanged() throws {
        let detector = try TinyYOLO.detector(sessionPolicy: SessionPolicy(maximumSessions: 1))
        let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let before = try detector.detect(image)
        let noise = detector.headInputShapes.map { shape in (0..<shape.count).map { Float($0 % 13) - 6 } }
        _ = try detector.detect(headInputs: noise, imageWidth: 32, imageHeight: 32)
        XCTAssertEqual(try detector.detect(image), before)
        XCTAssertEqual(detector.sessionStatistics.created, 1, "the one session ran both")
    }
}
