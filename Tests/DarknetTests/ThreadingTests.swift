@testable import Darknet
import XCTest

/// The thread count is a parameter of the session; the numbers must not depend on it.
final class ThreadingTests: XCTestCase {
    func testEveryLayerIsBitIdenticalForOneTwoAndThreeThreads() throws {
        let cfg = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("yolov3-tiny.cfg"))
        let network = try Network(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        var outputs: [[[Float]]] = []
        for threads in [1, 2, 3] {
            let session = InferenceSession(network: network, retaining: .all, threads: threads)
            try session.forward(input)
            outputs.append(try network.plan.layers.map { try session.output(ofLayer: $0.index).values })
        }
        for layer in network.plan.layers.indices {
            XCTAssertEqual(outputs[1][layer], outputs[0][layer], "layer \(layer), 2 threads vs 1")
            XCTAssertEqual(outputs[2][layer], outputs[0][layer], "layer \(layer), 3 threads vs 1")
        }
    }

    /// A session that keeps only the detection heads computes YOLOv3-tiny's first two maxpools
    /// inside the convolutions before them; the heads must not change by a bit.
    func testDetectionSessionsWithFusedPoolsMatchEveryLayerSessions() throws {
        let cfg = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("yolov3-tiny.cfg"))
        let network = try Network(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        XCTAssertEqual(network.plan.fusibleMaxpools, [1, 3])
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        let every = InferenceSession(network: network, retaining: .all)
        try every.forward(input)
        for threads in [1, 2] {
            let heads = InferenceSession(network: network, retaining: .detection, threads: threads)
            try heads.forward(input)
            for head in [16, 23] {
                XCTAssertEqual(try heads.output(ofLayer: head).values, try every.output(ofLayer: head).values,
                               "layer \(head), \(threads) thread(s)")
            }
        }
    }
}
