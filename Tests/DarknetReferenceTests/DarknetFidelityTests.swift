@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// Layer outputs against the original Darknet (Debian's libdarknet.so) on the same input
/// tensor. The references are produced by `Tools/make-fixtures.sh`, which the test command runs.
final class DarknetFidelityTests: XCTestCase {
    func testYoloV3TinyRealWeightsEveryLayer() throws {
        try compare(cfg: TestPaths.fixtures.appendingPathComponent("cfg/yolov3-tiny-416.cfg"),
                    weights: TestPaths.tinyWeights, reference: "tiny-real", expectAtLeast: 24)
    }

    func testYoloV3TinyRandomWeightsEveryLayer() throws {
        try compare(cfg: TestPaths.fixtures.appendingPathComponent("cfg/yolov3-tiny-416.cfg"),
                    weights: TestPaths.fixtures.appendingPathComponent("weights/yolov3-tiny-random.weights"),
                    reference: "tiny-random", expectAtLeast: 24)
    }

    func testYoloV3RandomWeightsRoutesUpsamplesAndHeads() throws {
        try compare(cfg: TestPaths.fixtures.appendingPathComponent("cfg/yolov3-416.cfg"),
                    weights: TestPaths.fixtures.appendingPathComponent("weights/yolov3-random.weights"),
                    reference: "yolov3-random", expectAtLeast: 3 + 4 + 2)
    }

    private func compare(cfg: URL, weights: URL, reference: String, expectAtLeast: Int,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        try LayerReference.compare(cfg: cfg, weights: weights, input: TestPaths.fixtures.appendingPathComponent("input/dog-416.bin"),
                                   reference: TestPaths.fixtures.appendingPathComponent(reference), expectAtLeast: expectAtLeast,
                                   file: file, line: line)
    }
}
