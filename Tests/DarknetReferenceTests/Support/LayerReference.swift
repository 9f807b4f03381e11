@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// A directory of Darknet layer outputs (`layers.json` + `layerNNN.bin`) written by
/// `darknet_ref forward`, compared layer by layer with our forward pass on the same input.
struct LayerReference {
    struct Entry: Decodable {
        let index: Int
        let type: String
        let file: String
        let out_c: Int, out_h: Int, out_w: Int
    }
    private struct Index: Decodable { let layers: [Entry] }

    /// Darknet's layer outputs must match to this (a correct float32 port lands near 1e-5).
    static let tolerance: Float = darknetLayerTolerance

    /// Runs `cfg` with `weights` on `input` and compares every layer in `reference`; returns
    /// the largest difference per layer.
    @discardableResult
    static func compare(cfg: URL, weights: URL, input: URL, reference: URL, expectAtLeast: Int, skipping: Set<Int> = [],
                        file: StaticString = #filePath, line: UInt = #line) throws -> [(index: Int, type: String, difference: Float)] {
        let indexData = try Data(contentsOf: try TestPaths.require(reference.appendingPathComponent("layers.json"), file: file, line: line))
        let entries = try JSONDecoder().decode(Index.self, from: indexData).layers
        XCTAssertGreaterThanOrEqual(entries.count, expectAtLeast, "too few reference layers", file: file, line: line)

        let spec = try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: try TestPaths.require(cfg, file: file, line: line))), file: cfg.path)
        let network = try Network(spec: spec, weights: [UInt8](Data(contentsOf: try TestPaths.require(weights, file: file, line: line))),
                                  weightsName: weights.path)
        let session = InferenceSession(network: network, retaining: .layers(Set(entries.map(\.index))))
        try session.forward(try readFloatFile(try TestPaths.require(input, file: file, line: line)))

        var results: [(index: Int, type: String, difference: Float)] = []
        for entry in entries where !skipping.contains(entry.index) {
            let expected = try readFloatFile(reference.appendingPathComponent(entry.file))
            let actual = try session.output(ofLayer: entry.index)
            XCTAssertEqual(entry.type, network.plan.layers[entry.index].spec.kind.sectionName, "layer \(entry.index) type",
                           file: file, line: line)
            // Darknet leaves the shape of flat layers ([softmax], [connected] as 1x1xN) at 0; then
            // only the count is comparable.
            if entry.out_c * entry.out_h * entry.out_w != 0 {
                XCTAssertEqual(actual.shape, TensorShape(channels: entry.out_c, height: entry.out_h, width: entry.out_w),
                               "layer \(entry.index) shape", file: file, line: line)
            }
            XCTAssertEqual(actual.values.count, expected.count, "layer \(entry.index) size", file: file, line: line)
            let difference = maxAbsDifference(actual.values, expected)
            results.append((entry.index, entry.type, difference))
            XCTAssertLessThanOrEqual(difference, tolerance, "layer \(entry.index) [\(entry.type)] differs from Darknet by \(difference)",
                                     file: file, line: line)
            // Guard against comparing degenerate tensors: the reference must carry signal.
            let largest = expected.max() ?? 0
            let spread = largest - (expected.min() ?? 0)
            if entry.type == "softmax" {
                // Probabilities over many classes are small: ask for a relative spread, and hold
                // them to the tolerance relative to the largest one as well.
                XCTAssertGreaterThan(spread, 0.1 * largest, "layer \(entry.index) reference is nearly uniform", file: file, line: line)
                XCTAssertLessThanOrEqual(difference, tolerance * largest, "layer \(entry.index) [softmax] relative difference",
                                         file: file, line: line)
            } else {
                XCTAssertGreaterThan(spread, 1e-2, "layer \(entry.index) reference is nearly constant", file: file, line: line)
            }
        }
        print("\(reference.lastPathComponent) max abs difference per layer: "
              + results.map { "\($0.index):\($0.type)=\($0.difference)" }.joined(separator: " "))
        return results
    }
}
