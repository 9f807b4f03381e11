@_spi(Testing) @testable import Darknet
import Foundation
import XCTest

/// Parsing and planning of the YOLOv2 and classifier sections: defaults, the keys that are
/// refused with their line, and the shapes that do not fit.
final class ZooSpecTests: XCTestCase {
    static let net = "[net]\nwidth=8\nheight=8\nchannels=3\n"   // layer headers start at line 5

    private func spec(_ text: String) throws -> NetworkSpec { try NetworkSpec.parse(text: Self.net + text, file: "z.cfg") }

    /// The error parsing `text` gives, or with `loading`, loading its class trees (parsing reads no file).
    private func assertCfgError(_ text: String, line: Int, key: String?, loading: Bool = false,
                                _ check: (CfgError.Reason) -> Bool, file: StaticString = #filePath, sourceLine: UInt = #line) {
        if loading { XCTAssertNoThrow(try spec(text), "parsing reads no tree file", file: file, line: sourceLine) }
        XCTAssertThrowsError(try spec(text).loadingClassTrees(), file: file, line: sourceLine) { error in
            guard let error = error as? CfgError else { return XCTFail("\(error)", file: file, line: sourceLine) }
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            XCTAssertEqual(error.key, key, "\(error)", file: file, line: sourceLine)
            XCTAssertTrue(check(error.reason), "\(error)", file: file, line: sourceLine)
        }
    }

    private func assertPlanError(_ text: String, _ expected: PlanError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try NetworkPlan(spec: try spec(text)), file: file, line: line) { error in
            let error = error as? PlanError
            XCTAssertEqual(error.map { PlanError(layer: $0.layer, section: $0.section, reason: $0.reason) }, expected,
                           file: file, line: line)
        }
    }

    func testRegionDefaultsAndKeys() throws {
        let s = try spec("[convolutional]\nfilters=50\n[region]\nclasses=5\nnum=5\nsoftmax=1\nanchors=1,2, 3,4, 5,6, 7,8, 9,10\njitter=.2\nbias_match=1\nrescore=1\n")
        guard case .region(let region) = s.layers[1].kind else { return XCTFail("not a region") }
        XCTAssertEqual(region.classes, 5)
        XCTAssertEqual(region.num, 5)
        XCTAssertTrue(region.softmax)
        XCTAssertEqual(region.anchors.map(\.width), [1, 3, 5, 7, 9])
        XCTAssertTrue(s.diagnostics.isEmpty, "training keys are accepted silently: \(s.diagnostics)")
        let plan = try NetworkPlan(spec: s)
        XCTAssertEqual(plan.layers[1].outputShape, TensorShape(channels: 50, height: 8, width: 8))
        XCTAssertTrue(plan.layers[1].spec.kind.isDetectionHead)

        let defaults = try spec("[convolutional]\nfilters=25\n[region]\n")
        guard case .region(let d) = defaults.layers[1].kind else { return XCTFail("not a region") }
        XCTAssertEqual(d.classes, 20)
        XCTAssertEqual(d.num, 1)
        XCTAssertFalse(d.softmax)
        XCTAssertTrue(d.anchors.isEmpty)
        XCTAssertTrue(d.anchor(0) == (0.5, 0.5), "Darknet's default anchor")
        // A huge num without anchors allocates nothing before the plan refuses it.
        XCTAssertThrowsError(try NetworkPlan(spec: try spec("[region]\nnum=2000000000\n")))
    }

    func testRegionRefusals() {
        assertCfgError("[region]\ncoords=5\n", line: 6, key: "coords") { $0 == .unsupported("coords=5 (segmentation masks); only coords=4") }
        // A tree that is nowhere to be found, when it is loaded (the class trees themselves: ClassTreeNetworkTests).
        assertCfgError("[region]\ntree=data/none.tree\n", line: 6, key: "tree", loading: true) { if case .invalidValue = $0 { true } else { false } }
        assertCfgError("[region]\nbackground=1\n", line: 6, key: "background") { if case .unsupported = $0 { true } else { false } }
        assertCfgError("[region]\nnum=2\nanchors=1,2,3\n", line: 7, key: "anchors") { if case .invalidValue = $0 { true } else { false } }
        assertPlanError("[convolutional]\nfilters=24\n[region]\nnum=1\nclasses=20\n",
                        PlanError(layer: 1, section: "region", reason: .regionChannelMismatch(expected: 25, actual: 24)))
    }

    func testReorg() throws {
        let plan = try NetworkPlan(spec: try spec("[convolutional]\nfilters=8\n[reorg]\nstride=2\n"))
        XCTAssertEqual(plan.layers[1].outputShape, TensorShape(channels: 32, height: 4, width: 4))
        let reversed = try NetworkPlan(spec: try spec("[convolutional]\nfilters=8\n[reorg]\nstride=2\nreverse=1\n"))
        XCTAssertEqual(reversed.layers[1].outputShape, TensorShape(channels: 2, height: 16, width: 16))
        let extra = try NetworkPlan(spec: try spec("[reorg]\nextra=5\n"))
        XCTAssertEqual(extra.layers[0].outputShape, TensorShape(channels: 197, height: 1, width: 1))
        assertCfgError("[reorg]\nflatten=1\nextra=1\n", line: 7, key: "extra") { if case .unsupported = $0 { true } else { false } }
        assertPlanError("[reorg]\nstride=3\n",
                        PlanError(layer: 0, section: "reorg",
                                  reason: .reorgNotDivisible(input: TensorShape(channels: 3, height: 8, width: 8), stride: 3)))
    }

    /// Darknet's permutation on a tiny tensor, as printed by libdarknet.so for 4x4x8 input
    /// values 0..127 with stride 2 (first 16 outputs).
    func testReorgPermutationIsDarknets() {
        var input = (0..<128).map(Float.init)
        var output = [Float](repeating: -1, count: 128)
        input.withUnsafeMutableBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                reorg(i.baseAddress!, width: 4, height: 4, channels: 8, stride: 2, into: o.baseAddress!)
            }
        }
        XCTAssertEqual(Array(output[0..<16]), [0, 2, 4, 6, 16, 18, 20, 22, 32, 34, 36, 38, 48, 50, 52, 54])
        XCTAssertEqual(Array(output[32..<36]), [1, 3, 5, 7])
        XCTAssertEqual(Array(output[64..<68]), [8, 10, 12, 14])
        XCTAssertEqual(Set(output).count, 128, "a permutation")
    }

    func testClassifierSections() throws {
        let s = try spec("""
            [crop]
            crop_width=6
            crop_height=4
            flip=1
            [convolutional]
            filters=4
            [batchnorm]
            [dropout]
            probability=.25
            [connected]
            output=10
            batch_normalize=1
            [softmax]
            groups=2
            temperature=3
            [cost]
            type=sse
            """)
        XCTAssertTrue(s.diagnostics.isEmpty, "\(s.diagnostics)")
        let plan = try NetworkPlan(spec: s)
        XCTAssertEqual(plan.layers.map(\.outputShape.count), [72, 96, 96, 96, 10, 10, 10])
        XCTAssertEqual(plan.layers[4].parameterCount, 10 * 97, "folded weights and biases")
        XCTAssertEqual(plan.layers[2].parameterCount, 8, "a factor and a shift per channel")
        guard case .connected(let fc) = s.layers[4].kind, case .softmax(let sm) = s.layers[5].kind else { return XCTFail() }
        XCTAssertEqual(fc.activation, .logistic, "Darknet's default")
        XCTAssertEqual(sm.groups, 2)
        XCTAssertEqual(sm.temperature, 3)

        let pooled = try NetworkPlan(spec: try spec("[avgpool]\n"))
        XCTAssertEqual(pooled.layers[0].outputShape, TensorShape(channels: 3, height: 1, width: 1))
    }

    func testClassifierRefusals() {
        assertCfgError("[softmax]\ntree=x.tree\n", line: 6, key: "tree", loading: true) { if case .invalidValue = $0 { true } else { false } }
        assertCfgError("[softmax]\nspatial=1\n", line: 6, key: "spatial") { if case .unsupported = $0 { true } else { false } }
        assertCfgError("[softmax]\ntemperature=0\n", line: 6, key: "temperature") { if case .invalidValue = $0 { true } else { false } }
        assertCfgError("[dropout]\nprobability=2\n", line: 6, key: "probability") { if case .invalidValue = $0 { true } else { false } }
        assertCfgError("[connected]\noutput=0\n", line: 6, key: "output") { if case .invalidValue = $0 { true } else { false } }
        assertPlanError("[softmax]\ngroups=5\n",
                        PlanError(layer: 0, section: "softmax", reason: .softmaxGroupsNotDividing(inputs: 192, groups: 5)))
        assertPlanError("[crop]\ncrop_width=9\ncrop_height=2\n",
                        PlanError(layer: 0, section: "crop",
                                  reason: .cropLargerThanInput(width: 9, height: 2, input: TensorShape(channels: 3, height: 8, width: 8))))
    }

    /// Darknet's `shortcut_cpu` between different shapes: the overlapping channels of a 2x
    /// larger `from` grid are added with stride 2; the other channels keep the previous
    /// layer's values (without `alpha`); then the activation.
    func testShortcutBetweenDifferentShapes() throws {
        let cfg = "[net]\nwidth=4\nheight=4\nchannels=1\n[maxpool]\nsize=1\nstride=1\n[maxpool]\nsize=2\nstride=2\n"
            + "[route]\nlayers=-1,-1,-1\n[shortcut]\nfrom=0\nalpha=2\nbeta=10\nactivation=linear\n"
        let spec = try NetworkSpec.parse(text: cfg, file: "s.cfg")
        let network = try Network(spec: spec, weights: WeightsWriter().header())
        XCTAssertEqual(network.plan.layers[3].outputShape, TensorShape(channels: 3, height: 2, width: 2))
        let input = (0..<16).map(Float.init)
        let session = InferenceSession(network: network, retaining: .all)
        try session.forward(input)
        // maxpool 2x2/2 of 0..15: 5, 7, 13, 15 in each of the 3 routed channels; the first
        // channel gets 2 * pooled + 10 * input(2j, 2i) = 2 * [5, 7, 13, 15] + 10 * [0, 2, 8, 10].
        XCTAssertEqual(try session.output(ofLayer: 3).values, [10, 34, 106, 130, 5, 7, 13, 15, 5, 7, 13, 15])
    }

    /// A [connected] layer's weights file: biases, weights, then batch norm, read to the last byte.
    func testConnectedWeightsAreCheckedToTheByte() throws {
        let s = try spec("[connected]\noutput=2\nbatch_normalize=1\n")
        let floats = 2 + 2 * 192 + 3 * 2
        let bytes = WeightsWriter().header() + WeightsWriter.floatBytes((0..<floats).map { Float($0 % 7) * 0.1 + 0.1 })
        XCTAssertNoThrow(try Network(spec: s, weights: bytes))
        XCTAssertThrowsError(try Network(spec: s, weights: Array(bytes.dropLast(4)))) { error in
            guard case .truncated(let parameter, _, _)? = (error as? WeightsError)?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(parameter, "rolling_variance")
        }
        XCTAssertThrowsError(try Network(spec: s, weights: bytes + [0, 0, 0, 0])) { error in
            XCTAssertEqual((error as? WeightsError)?.reason, .trailingBytes(count: 4))
        }
    }
}
