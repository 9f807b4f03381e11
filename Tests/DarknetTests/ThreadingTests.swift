@testable import Darknet
import Foundation
import XCTest

/// The thread count is a parameter of the session; the numbers must not depend on it.
final class ThreadingTests: XCTestCase {
    private func assertEveryLayerIsBitIdenticalForOneTwoAndThreeThreads(_ network: Network, _ input: [Float],
                                                                        line: UInt = #line) throws {
        var outputs: [[[Float]]] = []
        for threads in [1, 2, 3] {
            let session = InferenceSession(network: network, retaining: .all, threads: threads)
            try session.forward(input)
            outputs.append(try network.plan.layers.map { try session.output(ofLayer: $0.index).values })
        }
        for layer in network.plan.layers.indices {
            XCTAssertEqual(outputs[1][layer], outputs[0][layer], "layer \(layer), 2 threads vs 1", line: line)
            XCTAssertEqual(outputs[2][layer], outputs[0][layer], "layer \(layer), 3 threads vs 1", line: line)
        }
    }

    func testEveryLayerIsBitIdenticalForOneTwoAndThreeThreads() throws {
        let cfg = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("yolov3-tiny.cfg"))
        let network = try Network(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        try assertEveryLayerIsBitIdenticalForOneTwoAndThreeThreads(network, input)
    }

    /// Small GEMMs (1x1 convolutions of few channels, im2col of small layers) are not cut in
    /// shapes OpenBLAS would round differently: every thread count gives the same bits.
    func testSmallGEMMsAreBitIdenticalForOneTwoAndThreeThreads() throws {
        let text = "[net]\nwidth=26\nheight=26\nchannels=32\n"
            + "[convolutional]\nfilters=32\nsize=1\nactivation=leaky\n"
            + "[convolutional]\nfilters=64\nsize=3\npad=1\nactivation=leaky\n"
            + "[convolutional]\nfilters=16\nsize=1\nactivation=linear\n"
            + "[maxpool]\nsize=2\nstride=2\n"
            + "[convolutional]\nfilters=200\nsize=1\nactivation=leaky\n"
        let spec = try NetworkSpec.parse(text: text, file: "small-gemms.cfg")
        let network = try Network(spec: spec, weights: try WeightsBuilder().bytes(spec: spec, seed: 8),
                                  options: PlanOptions(convolutionStrategy: .im2colOnly))
        var generator = SplitMix64(seed: 13)
        let input = (0..<network.inputShape.count).map { _ in generator.nextFloat(in: -1...1) }
        try assertEveryLayerIsBitIdenticalForOneTwoAndThreeThreads(network, input)
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
