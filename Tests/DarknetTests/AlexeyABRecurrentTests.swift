@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

/// Where AlexeyAB's `[crnn]` and `[lstm]` differ from the original's (which `RecurrentTests`
/// checks against Debian's Darknet): `[crnn]`'s own keys (kernel size, padding, dilation,
/// groups; no swap of width and height) against the naive convolution step by step, the two key
/// sets agreeing where they mean the same, and `[lstm]`'s sub-layer order in the weights file.
final class AlexeyABRecurrentTests: XCTestCase {
    private func network(_ text: String, seed: UInt64) throws -> Network {
        let spec = try NetworkSpec.parse(text: text, file: "case.cfg")
        return try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: seed))
    }

    private func randomInput(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in generator.nextFloat(in: -2...2) }
    }

    /// `crnn.train.cfg`'s 1x1 form, a grouped 3x3 one with shortcut, a dilated one with batch
    /// norm: every step equals `state = input(x) + self(state)`, `output(state)` computed by
    /// `NaiveLayers.convolution`.
    func testCRNNWithAlexeyABKeysMatchesNaiveConvolutionsOverSteps() throws {
        let cases: [(c: Int, h: Int, w: Int, keys: String)] = [
            (16, 1, 1, "output=8\nhidden=12\nsize=1\npad=0\nbatch_normalize=1\nactivation=leaky"),
            (4, 7, 9, "output=6\nhidden=4\nsize=3\npad=1\ngroups=2\nshortcut=1\nactivation=leaky"),
            (3, 10, 8, "output=5\nhidden=6\nsize=3\npad=1\ndilation=2\nbatch_normalize=1\nactivation=mish"),
            (2, 6, 5, "output=3\nhidden=2\nsize=5\npadding=2\nactivation=logistic"),
        ]
        for (n, c) in cases.enumerated() {
            let text = "[net]\nwidth=\(c.w)\nheight=\(c.h)\nchannels=\(c.c)\n[crnn]\n" + c.keys + "\n"
            let network = try network(text, seed: UInt64(n))
            XCTAssertEqual(network.spec.dialect, .alexeyAB, "case \(n)")
            guard case .crnn(let crnn) = network.spec.layers[0].kind else { return XCTFail("not a [crnn]") }
            let layer = network.plan.layers[0]
            XCTAssertEqual(layer.outputShape, TensorShape(channels: crnn.outputFilters, height: c.h, width: c.w), "case \(n)")
            let arrays = try WeightsWriter.randomArrays(for: NetworkPlan(spec: network.spec), seed: UInt64(n))[0]
            let perSublayer = crnn.batchNormalize ? 5 : 2
            let parameters = (0..<3).map { Array(arrays[($0 * perSublayer)..<(($0 + 1) * perSublayer)]) }
            let subs = crnn.sublayers(layer.inputShape)
            let session = InferenceSession(network: network, retaining: .all, threads: 2)
            var state = [Float](repeating: 0, count: crnn.hiddenFilters * c.h * c.w)
            for step in 0..<3 {
                let input = randomInput(layer.inputShape.count, seed: 100 * UInt64(n) + UInt64(step))
                try session.forward(input)
                let fromInput = NaiveLayers.convolution(input: input, shape: subs[0].input, spec: subs[0].conv,
                                                        parameters: parameters[0], dialect: .alexeyAB)
                let fromState = NaiveLayers.convolution(input: state, shape: subs[1].input, spec: subs[1].conv,
                                                        parameters: parameters[1], dialect: .alexeyAB)
                state = (0..<state.count).map { (crnn.shortcut ? state[$0] : 0) + fromInput[$0] + fromState[$0] }
                let expected = NaiveLayers.convolution(input: state, shape: subs[2].input, spec: subs[2].conv,
                                                       parameters: parameters[2], dialect: .alexeyAB)
                assertClose(try session.output(ofLayer: 0).values, expected, tolerance: 1e-4, "case \(n) step \(step): \(c.keys)")
            }
        }
    }

    /// On a square input, `output_filters=`/`hidden_filters=` (the original's, always 3x3 pad 1)
    /// and `output=`/`hidden=`/`size=3`/`pad=1` (AlexeyAB's) are the same layer; on a non-square
    /// one the original's output has width and height swapped, AlexeyAB's does not.
    func testCRNNKeySetsAgreeWhereTheyMeanTheSameLayer() throws {
        let original = "[crnn]\noutput_filters=5\nhidden_filters=3\nshortcut=1\nactivation=leaky\n"
        let alexeyAB = "[crnn]\noutput=5\nhidden=3\nsize=3\npad=1\nshortcut=1\nactivation=leaky\n"
        let net = "[net]\nwidth=6\nheight=6\nchannels=2\n"
        let a = try network(net + original, seed: 9), b = try network(net + alexeyAB, seed: 9)
        XCTAssertEqual(a.spec.dialect, .original)
        XCTAssertEqual(b.spec.dialect, .alexeyAB)
        let sa = InferenceSession(network: a, retaining: .all), sb = InferenceSession(network: b, retaining: .all)
        for step in 0..<3 {
            let input = randomInput(a.inputShape.count, seed: UInt64(step))
            try sa.forward(input)
            try sb.forward(input)
            XCTAssertEqual(try sa.output(ofLayer: 0).values, try sb.output(ofLayer: 0).values, "step \(step)")
        }
        let wide = "[net]\nwidth=8\nheight=5\nchannels=2\n"
        XCTAssertEqual(try NetworkPlan(spec: NetworkSpec.parse(text: wide + original, file: "a.cfg")).layers[0].outputShape,
                       TensorShape(channels: 5, height: 8, width: 5))
        XCTAssertEqual(try NetworkPlan(spec: NetworkSpec.parse(text: wide + alexeyAB, file: "b.cfg")).layers[0].outputShape,
                       TensorShape(channels: 5, height: 5, width: 8))
    }

    /// yolov3-tiny_occlusion_track.cfg's first `[crnn]` (after a 13x13x1024 convolution): an
    /// image-shaped recurrent convolution whose BFLOPs are its three sub-layers', as AlexeyAB
    /// counts them (and prints them in its total).
    func testOcclusionTrackCRNNPlansOnTheImage() throws {
        let text = "[net]\nwidth=13\nheight=13\nchannels=1024\n"
            + "[crnn]\nbatch_normalize=1\nsize=3\npad=1\noutput=512\nhidden=256\nactivation=leaky\n"
        let plan = try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: "track.cfg"))
        let layer = plan.layers[0]
        XCTAssertEqual(layer.outputShape, TensorShape(channels: 512, height: 13, width: 13))
        XCTAssertEqual(layer.flops, 2 * 9 * 169 * (1024 * 256 + 256 * 256 + 256 * 512))
        XCTAssertEqual(layer.stateCount, 256 * 169)
        XCTAssertEqual(layer.storedParameters.map(\.name).prefix(5),
                       ["input_layer.biases", "input_layer.scales", "input_layer.rolling_mean", "input_layer.rolling_variance",
                        "input_layer.weights"])
        XCTAssertEqual(layer.storedParameters.reduce(0) { $0 + $1.count },
                       4 * (256 + 256 + 512) + 9 * (1024 * 256 + 256 * 256 + 256 * 512))
    }

    /// The file stores the original's `wi wf wo wg ui uf uo ug` and AlexeyAB's
    /// `wf wi wg wo uf ui ug uo`; an `[lstm]` in an AlexeyAB-dialect network (here made one by a
    /// mish `[connected]`) reads the latter.
    func testLSTMReadsEachDarknetsSubLayerOrder() throws {
        let lstm = "[net]\ninputs=7\n[lstm]\noutput=4\n[connected]\noutput=3\nactivation="
        for (activation, dialect, fileBlock) in [("leaky", DarknetDialect.original, [1, 0, 3, 2, 5, 4, 7, 6]),
                                                 ("mish", .alexeyAB, [0, 1, 2, 3, 4, 5, 6, 7])] {
            let network = try network(lstm + activation + "\n", seed: 3)
            XCTAssertEqual(network.spec.dialect, dialect)
            let stored = try WeightsWriter.randomArrays(for: NetworkPlan(spec: network.spec), seed: 3)[0]
            let loaded = network.steps[0].parameterArrays
            // Each block: stored as biases, weights; held as weights, biases (step order wf wi wg wo uf ui ug uo).
            for (gate, block) in fileBlock.enumerated() {
                XCTAssertEqual(loaded[2 * gate], stored[2 * block + 1], "\(dialect) gate \(gate) weights")
                XCTAssertEqual(loaded[2 * gate + 1], stored[2 * block], "\(dialect) gate \(gate) biases")
            }
        }
    }
}
