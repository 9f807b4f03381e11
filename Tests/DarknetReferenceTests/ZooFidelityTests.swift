@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// YOLOv2, YOLOv2-tiny(-voc), YOLOv3-SPP and Darknet's classifiers against the original Darknet
/// (Debian's libdarknet.so), random weights, the same input tensor. References:
/// `Tools/make-fixtures-zoo.sh` (run by `Tools/make-fixtures.sh`).
final class ZooFidelityTests: XCTestCase {
    static let zoo = TestPaths.fixtures.appendingPathComponent("zoo")

    /// Compares the fixture `name` (its cfg, weights and reference of that name unless given).
    private func compare(_ name: String, cfg: String? = nil, input: String, expectAtLeast: Int, weights: String? = nil,
                         reference: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let z = Self.zoo
        try LayerReference.compare(cfg: z.appendingPathComponent("cfg/\(cfg ?? name).cfg"),
                                   weights: z.appendingPathComponent("weights/\(weights ?? name).weights"),
                                   input: z.appendingPathComponent("input/\(input).bin"),
                                   reference: z.appendingPathComponent(reference ?? name), expectAtLeast: expectAtLeast,
                                   file: file, line: line)
    }

    /// Every [maxpool], [route], [reorg] and the [region] head, plus convolutions before and after.
    func testYoloV2At416() throws {
        try compare("yolov2-416", input: "dog-416x416", expectAtLeast: 5 + 2 + 1 + 1 + 5)
    }

    func testYoloV2TinyEveryLayer() throws {
        try compare("yolov2-tiny", cfg: "yolov2-tiny-416", input: "dog-416x416", expectAtLeast: 16)
    }

    func testYoloV2TinyVOC() throws {
        try compare("yolov2-tiny-voc", cfg: "yolov2-tiny-voc-416", input: "dog-416x416", expectAtLeast: 7)
    }

    /// The SPP block (maxpool 5, 9, 13 at stride 1 on a 10x10 grid) and the three heads at 320.
    func testYoloV3SPPAt320() throws {
        try compare("yolov3-spp-320", input: "dog-320x320", expectAtLeast: 3 + 7 + 3 + 2)
    }

    func testDarknetReferenceClassifierEveryLayer() throws {
        try compare("darknet", input: "dog-256x256", expectAtLeast: 16)
    }

    func testTinyClassifierEveryLayer() throws {
        try compare("tiny", input: "dog-224x224", expectAtLeast: 22)
    }

    func testDarknet19EveryLayer() throws {
        try compare("darknet19", input: "dog-256x256", expectAtLeast: 26)
    }

    /// ResNet-18 at 128: [shortcut]s from a 2x larger grid with half the channels.
    func testResNet18EveryLayer() throws {
        try compare("resnet18-128", input: "dog-128x128", expectAtLeast: 29)
    }

    /// ResNeXt-50 at 128: grouped convolutions (32 groups), every shortcut, the head.
    func testResNeXt50() throws {
        try compare("resnext50-128", input: "dog-128x128", expectAtLeast: 25)
    }

    /// Every [reorg] variant: default, reverse, flatten (and back, under another shape), extra.
    func testReorgVariants() throws {
        try compare("reorg-variants", input: "dog-8x8", expectAtLeast: 7)
    }

    /// Darknet's Go network (`go.cfg`): a [reorg] with `extra=1` turns the 19x19 board into 362
    /// move probabilities (the last one, "pass", always from a zero logit).
    func testGoNetwork() throws {
        try compare("go", input: "go-board", expectAtLeast: 6)
    }

    /// [crop], [batchnorm], [dropout], [connected] with and without batch norm, grouped
    /// [softmax] with a temperature.
    func testClassifierLayers() throws {
        try compare("classifier-layers", input: "dog-40x36", expectAtLeast: 10)
    }

    /// The same network and weights with the header's minor version at 1001: the [connected]
    /// weights are stored transposed, and Darknet's output is the same.
    func testTransposedConnectedWeights() throws {
        try compare("classifier-layers", input: "dog-40x36", expectAtLeast: 1,
                    weights: "classifier-layers-transposed", reference: "classifier-layers-transposed")
        let data = try Data(contentsOf: Self.zoo.appendingPathComponent("weights/classifier-layers-transposed.weights"))
        let spec = try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: Self.zoo.appendingPathComponent("cfg/classifier-layers.cfg"))),
                                         file: "classifier-layers.cfg")
        XCTAssertTrue(try Network(spec: spec, weights: data).header.transposed)
    }

    /// Global [avgpool] and a [softmax] at temperature 0.5 after a [crop] with noadjust=1.
    func testGlobalAverageAndTemperature() throws {
        try compare("global-average", input: "dog-28x28", expectAtLeast: 5)
    }
}
