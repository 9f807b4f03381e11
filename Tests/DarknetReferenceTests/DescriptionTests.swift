import Darknet
import TestSupport
import XCTest

/// What `print(value)` shows of the types an app holds: one short line of what matters (sizes,
/// files, counts), never the pixels, values or layer lists they carry, which reflection printed
/// before (a 768x576 photo as 1.3 million floats).
final class DescriptionTests: XCTestCase {
    func testImagesTensorsBuffersAndFramesPrintTheirSizesNotTheirData() throws {
        let image = try PlanarImage(width: 768, height: 576, channels: 3, filledWith: 0.5)
        XCTAssertEqual("\(image)", "PlanarImage(768 x 576 x 3)")
        XCTAssertEqual(String(reflecting: image), "PlanarImage(768 x 576 x 3)")

        let bytes = [UInt8](repeating: 7, count: 64 * 48 * 4)
        let pixels = try PixelBuffer(format: .bgra, width: 64, height: 48, bytes: bytes)
        XCTAssertEqual("\(pixels)", "PixelBuffer(BGRA, 64 x 48)")
        let crop = try pixels.cropped(to: PixelRegion(x: 10, y: 6, width: 20, height: 16))
        XCTAssertEqual("\(crop)", "PixelBuffer(BGRA, 20 x 16 at (10, 6))")

        XCTAssertEqual("\(Frame(pixels: pixels, presentationTime: .milliseconds(40)))",
                       "Frame(0.04 seconds, BGRA, 64 x 48)")
        XCTAssertEqual("\(Frame(pixels: pixels, presentationTime: .milliseconds(120), index: 3))",
                       "Frame(index 3, 0.12 seconds, BGRA, 64 x 48)")
    }

    func testNetworksDetectorsAndSessionsPrintAOneLineSummary() throws {
        let detector = try TinyYOLO.detector(threads: 2)
        let cfg = detector.network.plan.file
        XCTAssertTrue(cfg.hasSuffix("yolov3-tiny.cfg"), cfg)
        XCTAssertEqual("\(detector)", "Detector(\(cfg): 80 classes, input 416 x 416 x 3, 2 threads)")
        // The sum of the BFLOPs Darknet prints for each layer (`PlanTests`).
        let summary = "\(cfg): 24 layers, input 416 x 416 x 3, 5.565 BFLOPs, float32"
        XCTAssertEqual("\(detector.network)", "Network(\(summary))")
        XCTAssertEqual("\(detector.network.plan)", "NetworkPlan(\(summary))")
        XCTAssertEqual("\(detector.network.spec)", "NetworkSpec(\(cfg): 24 layers, input 416 x 416 x 3)")
        let first = detector.network.plan.layers[0], pool = detector.network.plan.layers[1]
        XCTAssertEqual("\(first)", "LayerPlan(0: \(first.summary), \(first.algorithm!))")
        XCTAssertEqual("\(pool)", "LayerPlan(1: max          2 x 2 / 2   416 x 416 x  16   ->   208 x 208 x  16)")

        let session = InferenceSession(network: detector.network, retaining: .all, threads: 1)
        XCTAssertEqual("\(session)", "InferenceSession(\(cfg), 1 thread)")
        try session.forward([Float](repeating: 0.5, count: 416 * 416 * 3))
        XCTAssertEqual("\(try session.output(ofLayer: 16))", "Tensor(13 x 13 x 255)")
    }

    func testClassifiersTreesAndInt8PrecisionPrintTheirCounts() throws {
        let spec = try NetworkSpec.parse(text: "[net]\nwidth=4\nheight=2\nchannels=3\n[avgpool]\n[softmax]\n[cost]\n", file: "c.cfg")
        let classifier = try Classifier(network: try Network(spec: spec, randomSeed: 1))
        XCTAssertEqual("\(classifier)", "Classifier(c.cfg: 3 classes, input 4 x 2 x 3, 1 thread)")

        let input = TensorShape(channels: 3, height: 2, width: 4)
        let calibration = Int8Calibration(cfg: "c.cfg", inputShape: input, imageCount: 1,
                                          layers: [.init(layer: 0, input: input, minimum: -1, maximum: 1)])
        XCTAssertEqual("\(Precision.float32)", "float32")
        XCTAssertEqual("\(try ClassTree(bytes: Array("a -1\nb -1\nc 0\nd 0\ne 1\n".utf8), file: "t.tree"))",
                       "ClassTree(5 classes in 3 groups, 2 roots)")
        XCTAssertEqual("\(try ClassTree(bytes: Array("all -1\n".utf8), file: "t.tree"))", "ClassTree(1 class in 1 group, 1 root)")
        XCTAssertEqual("\(Precision.int8(calibration))", "int8 (1 calibrated convolution)")
    }
}
