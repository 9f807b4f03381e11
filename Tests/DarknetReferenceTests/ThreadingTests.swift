@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The thread count is a parameter of the session; the numbers must not depend on it.
final class ThreadingTests: XCTestCase {
    /// Splits of 2 and 3 threads as sessions make them, and the same cut into their finest
    /// pieces: every item of every step computed in a piece of its own boundaries.
    private static let splits: [(name: String, make: @Sendable () -> ThreadSplit)] = [
        ("2 threads", { ThreadSplit(threads: 2) }),
        ("3 threads", { ThreadSplit(threads: 3) }),
        ("2 threads, finest pieces", { ThreadSplit(threads: 2, finestPieces: true) }),
        ("3 threads, finest pieces", { ThreadSplit(threads: 3, finestPieces: true) }),
    ]

    private func assertEveryLayerIsBitIdenticalForOneTwoAndThreeThreads(_ network: Network, _ input: [Float],
                                                                        line: UInt = #line) throws {
        func outputs(_ session: InferenceSession) throws -> [[Float]] {
            try session.forward(input)
            return try network.plan.layers.map { try session.output(ofLayer: $0.index).values }
        }
        let single = try outputs(InferenceSession(network: network, retaining: .all, threads: 1))
        for split in Self.splits {
            let splitOutputs = try outputs(InferenceSession(network: network, retaining: .all, split: split.make()))
            for layer in network.plan.layers.indices {
                XCTAssertEqual(splitOutputs[layer], single[layer], "layer \(layer), \(split.name) vs 1", line: line)
            }
        }
    }

    func testEveryLayerIsBitIdenticalForOneTwoAndThreeThreads() throws {
        let cfg = try TestPaths.require(TestPaths.tinyCfg)
        let network = try Network(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        // Which way the GEMMs are cut (by thread, or by shape where the BLAS's sums depend on it).
        print("BLAS kernels \(BLAS.kernelName), cut invariantly: \(BLASFeatures.current.cutsInvariantly)")
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
        let network = try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: 8),
                                  options: PlanOptions(convolutionStrategy: .im2colOnly))
        var generator = SplitMix64(seed: 13)
        let input = (0..<network.inputShape.count).map { _ in generator.nextFloat(in: -1...1) }
        try assertEveryLayerIsBitIdenticalForOneTwoAndThreeThreads(network, input)
    }

    /// A session that keeps only the detection heads computes YOLOv3-tiny's first two maxpools
    /// inside the convolutions before them; the heads must not change by a bit.
    func testDetectionSessionsWithFusedPoolsMatchEveryLayerSessions() throws {
        let cfg = try TestPaths.require(TestPaths.tinyCfg)
        let network = try Network(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        XCTAssertEqual(network.plan.fusibleMaxpools, [1, 3])
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        let every = InferenceSession(network: network, retaining: .all)
        try every.forward(input)
        for (name, split) in [("1 thread", ThreadSplit(threads: 1)), ("2 threads", ThreadSplit(threads: 2)),
                              ("2 threads, finest pieces", ThreadSplit(threads: 2, finestPieces: true))] {
            let heads = InferenceSession(network: network, retaining: .detection, split: split)
            try heads.forward(input)
            for head in [16, 23] {
                XCTAssertEqual(try heads.output(ofLayer: head).values, try every.output(ofLayer: head).values,
                               "layer \(head), \(name)")
            }
        }
    }
}
