@testable import Darknet
import Foundation
import XCTest

/// Layer outputs against the original Darknet (Debian's libdarknet.so) on the same input
/// tensor. The references are produced by `Tools/make-fixtures.sh`, which the test command runs.
final class DarknetFidelityTests: XCTestCase {
    /// A correct float32 port lands near 1e-5; the bound is 1e-3.
    static let tolerance: Float = 1e-3

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

    private struct DumpIndex: Decodable {
        struct Entry: Decodable {
            let index: Int
            let type: String
            let file: String
            let out_c: Int, out_h: Int, out_w: Int
        }
        let layers: [Entry]
    }

    private func compare(cfg: URL, weights: URL, reference: String, expectAtLeast: Int,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = TestPaths.fixtures.appendingPathComponent(reference)
        let index = try JSONDecoder().decode(DumpIndex.self, from: Data(contentsOf: try TestPaths.require(directory.appendingPathComponent("layers.json"))))
        XCTAssertGreaterThanOrEqual(index.layers.count, expectAtLeast, "too few reference layers", file: file, line: line)

        let spec = try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: try TestPaths.require(cfg))), file: cfg.path)
        let network = try Network(spec: spec, weights: [UInt8](Data(contentsOf: try TestPaths.require(weights))), weightsFile: weights.path)
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        let session = InferenceSession(network: network, retaining: .layers(Set(index.layers.map(\.index))))
        try session.forward(input)

        var report: [String] = []
        for entry in index.layers {
            let expected = try readFloatFile(directory.appendingPathComponent(entry.file))
            let actual = try session.output(ofLayer: entry.index)
            XCTAssertEqual(entry.type, network.plan.layers[entry.index].spec.kind.sectionName, "layer \(entry.index) type", file: file, line: line)
            XCTAssertEqual(actual.shape, TensorShape(channels: entry.out_c, height: entry.out_h, width: entry.out_w),
                           "layer \(entry.index) shape", file: file, line: line)
            let difference = maxAbsDifference(actual.values, expected)
            report.append("\(entry.index):\(entry.type)=\(difference)")
            XCTAssertLessThanOrEqual(difference, Self.tolerance, "layer \(entry.index) [\(entry.type)] differs from Darknet by \(difference)",
                                     file: file, line: line)
            // Guard against comparing two degenerate tensors: the reference must carry signal.
            let spread = (expected.max() ?? 0) - (expected.min() ?? 0)
            XCTAssertGreaterThan(spread, 1e-2, "layer \(entry.index) reference is nearly constant", file: file, line: line)
        }
        print("\(reference) max abs difference per layer: " + report.joined(separator: " "))
    }
}
