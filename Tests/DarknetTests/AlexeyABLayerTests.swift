@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

/// AlexeyAB's layer features against direct, naive versions and hand-computed values: per-axis
/// strides, dilation and groups in convolutions; per-axis strides and SPP-sized windows in max
/// pooling; the new activations; grouped routes, multi-source shortcuts, `[scale_channels]`,
/// `[sam]`; the `[yolo]` extensions in the layer, the decoder and the NMS; the cfg keys.
final class AlexeyABLayerTests: XCTestCase {
    static let net = "[net]\nwidth=%d\nheight=%d\nchannels=%d\n"

    private func network(_ text: String, seed: UInt64 = 1, strategy: ConvolutionStrategy = .fastest) throws -> Network {
        let spec = try NetworkSpec.parse(text: text, file: "case.cfg")
        return try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: seed),
                           options: PlanOptions(convolutionStrategy: strategy))
    }

    private func randomInput(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in generator.nextFloat(in: -2...2) }
    }

    // MARK: convolution

    func testConvolutionStridesDilationAndGroupsMatchDirectConvolution() throws {
        let cases: [(c: Int, h: Int, w: Int, keys: String, notWinograd: Bool)] = [
            (3, 9, 11, "filters=4\nsize=3\nstride_x=2\nstride_y=1\npad=1\nbatch_normalize=1\nactivation=leaky", true),
            (4, 10, 7, "filters=3\nsize=3\nstride_x=1\nstride_y=3\npadding=1\nactivation=mish", true),
            (5, 8, 8, "filters=2\nsize=1\nstride_x=2\nstride_y=1\nactivation=linear", true),
            (3, 12, 12, "filters=4\nsize=3\ndilation=2\npad=1\nbatch_normalize=1\nactivation=leaky", true),
            (2, 13, 9, "filters=3\nsize=5\ndilation=3\npad=1\nactivation=swish", true),
            (32, 24, 24, "filters=4\nsize=3\ndilation=2\npad=1\nactivation=linear", true),
            (32, 24, 24, "filters=4\nsize=3\nstride_x=1\nstride_y=1\npad=1\nactivation=linear", false),
            (32, 24, 24, "filters=4\nsize=3\nstride=2\nstride_y=1\npad=1\nactivation=linear", true),
            (8, 7, 9, "filters=8\nsize=3\ngroups=8\npad=1\nbatch_normalize=1\nactivation=hard_mish", true),
            (32, 24, 24, "filters=32\nsize=3\ngroups=32\npad=1\nactivation=relu6", true),
            (6, 9, 10, "filters=4\nsize=3\ngroups=2\nstride_x=2\nstride_y=3\ndilation=2\npad=1\nactivation=gelu", true),
        ]
        for (n, c) in cases.enumerated() {
            let text = String(format: Self.net, c.w, c.h, c.c) + "[convolutional]\n" + c.keys + "\n"
            for strategy in [ConvolutionStrategy.fastest, .im2colOnly] {
                let network = try network(text, seed: UInt64(n), strategy: strategy)
                let algorithm = network.plan.layers[0].algorithm!
                if c.notWinograd { XCTAssertFalse(algorithm.isWinograd, "case \(n): \(c.keys)") }
                if !c.notWinograd && strategy == .fastest { XCTAssertTrue(algorithm.isWinograd, "case \(n)") }
                if c.keys.contains("size=1") { XCTAssertEqual(algorithm, .im2col, "a strided 1x1 is not the direct path") }
                let input = randomInput(network.inputShape.count, seed: 50 + UInt64(n))
                let session = InferenceSession(network: network, retaining: .all, threads: 2)
                try session.forward(input)
                guard case .convolutional(let conv) = network.spec.layers[0].kind else { return XCTFail("not a convolution") }
                let expected = NaiveLayers.convolution(input: input, shape: network.inputShape, spec: conv,
                                                       parameters: WeightsWriter.randomArrays(for: try NetworkPlan(spec: network.spec), seed: UInt64(n))[0],
                                                       dialect: network.spec.dialect)
                let actual = try session.output(ofLayer: 0)
                XCTAssertEqual(actual.values.count, expected.count, "case \(n) shape \(actual.shape)")
                assertClose(actual.values, expected, tolerance: 1e-4, "case \(n): \(c.keys), \(algorithm)")
            }
        }
    }

    func testOutputShapesUsePerAxisStrides() throws {
        let text = String(format: Self.net, 33, 26, 3)
            + "[convolutional]\nfilters=2\nsize=3\nstride_x=2\nstride_y=1\npad=1\n[maxpool]\nsize=3\nstride_x=1\nstride_y=2\n"
        let plan = try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: "shapes.cfg"))
        XCTAssertEqual(plan.layers[0].outputShape, TensorShape(channels: 2, height: 26, width: 17))
        XCTAssertEqual(plan.layers[1].outputShape, TensorShape(channels: 2, height: 13, width: 17))
    }

    // MARK: max pooling

    func testMaxpoolPerAxisStridesAndLargeWindowsMatchNaivePooling() throws {
        let cases: [(h: Int, w: Int, keys: String)] = [
            (13, 13, "size=5\nstride=1"), (13, 13, "size=9\nstride=1"), (13, 13, "size=13\nstride=1"), (19, 17, "size=13\nstride=1"),
            (20, 26, "size=3\nstride_x=2\nstride_y=1"), (20, 26, "size=2\nstride=1\nstride_x=1\nstride_y=2"),
            (7, 9, "size=4\nstride_x=3\nstride_y=2\npadding=1"), (5, 5, "size=6\nstride=1"), (1, 1, "size=13\nstride=1"),
            (6, 11, "size=3\nstride=3\npadding=0"),
        ]
        for (n, c) in cases.enumerated() {
            let network = try network(String(format: Self.net, c.w, c.h, 5) + "[maxpool]\n" + c.keys + "\n")
            let input = randomInput(network.inputShape.count, seed: UInt64(n))
            guard case .maxpool(let pool) = network.spec.layers[0].kind else { return XCTFail("not a maxpool") }
            let expected = NaiveLayers.maxpool(input: input, shape: network.inputShape, spec: pool)
            for threads in [1, 2] {
                let session = InferenceSession(network: network, retaining: .all, threads: threads)
                try session.forward(input)
                XCTAssertEqual(try session.output(ofLayer: 0).values, expected, "case \(c.keys), \(threads) threads")
            }
        }
    }

    // MARK: activations

    func testAlexeyABActivationsAgainstTheirFormulas() {
        func mish(_ x: Double) -> Double {
            let softplus = x > 20 ? x : (x < -20 ? exp(x) : log1p(exp(x)))
            return x * tanh(softplus)
        }
        for step in -400...400 {
            let x = Float(step) / 10
            let d = Double(x)
            XCTAssertEqual(Activation.mish.apply(x), Float(mish(d)), accuracy: 1e-5 * max(1, abs(x)), "mish(\(x))")
            XCTAssertEqual(Activation.swish.apply(x), Float(d / (1 + exp(-d))), accuracy: 1e-5 * max(1, abs(x)), "swish(\(x))")
            XCTAssertEqual(Activation.gelu.apply(x), Float(0.5 * d * (1 + tanh(0.797885 * d + 0.035677 * d * d * d))),
                           accuracy: 1e-5 * max(1, abs(x)), "gelu(\(x))")
            XCTAssertEqual(Activation.revleaky.apply(x), Activation.leaky.apply(x), "revleaky(\(x))")
        }
        XCTAssertEqual(Activation.hardMish.apply(3), 3)
        XCTAssertEqual(Activation.hardMish.apply(-1), -0.5)
        XCTAssertEqual(Activation.hardMish.apply(-2), 0)
        XCTAssertEqual(Activation.hardMish.apply(-5), 0)
        XCTAssertEqual(Activation.relu6.apply(7.5), 6)
        XCTAssertEqual(Activation.relu6.apply(-1), 0)
        XCTAssertEqual(Activation.relu6.apply(2.5), 2.5)
        // Past the softplus threshold mish is the identity; far below it x * e^x.
        XCTAssertEqual(Activation.mish.apply(25), 25)
        // Far below it the true value is x * e^x (-3.5e-10); AlexeyAB's float tanh formula
        // (2 / (1 + e^(-2 sp)) - 1) rounds that to 0, and so does this port.
        XCTAssertEqual(Activation.mish.apply(-25), 0)
        XCTAssertEqual(Activation(rawValue: "hard_mish"), .hardMish)
    }

    // MARK: route, shortcut, scale_channels, sam, yolo

    func testRouteGroupsShortcutsAndProductsOnKnownValues() throws {
        let text = String(format: Self.net, 2, 1, 4) + """
            [maxpool]
            size=1
            stride=1
            [route]
            layers=0
            groups=2
            group_id=1
            [route]
            layers=1,0
            groups=2
            group_id=0
            [route]
            layers=1
            [shortcut]
            from=1,3
            [maxpool]
            size=2
            stride=2
            [scale_channels]
            from=4
            [sam]
            from=4
            [route]
            layers=0
            groups=4
            group_id=0
            [scale_channels]
            from=4
            scale_wh=1
            """
        let network = try network(text)
        XCTAssertEqual(network.spec.dialect, .alexeyAB)
        let session = InferenceSession(network: network, retaining: .all)
        try session.forward([0, 10, 1, 11, 2, 12, 3, 13])  // channel c holds (c, 10 + c)
        func output(_ layer: Int) throws -> [Float] { try session.output(ofLayer: layer).values }
        XCTAssertEqual(try output(1), [2, 12, 3, 13], "slice 1 of 2: channels 2 and 3")
        XCTAssertEqual(try output(2), [2, 12, 0, 10, 1, 11], "slice 0 of each source, concatenated")
        XCTAssertEqual(try output(4), [6, 36, 9, 39], "previous + layer 1 + layer 3")
        XCTAssertEqual(try output(5), [36, 39])
        XCTAssertEqual(try output(6), [216, 1296, 351, 1521] as [Float], "6*36, 36*36, 9*39, 39*39: each channel of layer 4 times its scale")
        XCTAssertEqual(try output(7), [1296, 46656, 3159, 59319] as [Float], "216*6, 1296*36, 351*9, 1521*39: element-wise product with layer 4")
        XCTAssertEqual(try output(8), [0, 10])
        XCTAssertEqual(try output(9), [0, 360, 0, 390], "every channel of layer 4 times the one plane")
    }

    func testYoloScaleXYAndNewCoordsInTheLayerAndTheDecoder() throws {
        let head = "[yolo]\nmask=0\nanchors=8,16\nnum=1\nclasses=2\nscale_x_y=2.0\n"
        let input: [Float] = [0.25, 0.75, 0.5, -0.5, 0.5, 1.5, -1, 2, 0.9, 0.2, 0.8, 0.6, 0.3, 0.7]  // 7 entries x 2 cells
        // new_coords: no logistic; x, y scaled; w = 4 * tw^2 * anchor / network.
        let newCoords = try network(String(format: Self.net, 2, 1, 7) + head + "new_coords=1\nnms_kind=diounms\nbeta_nms=0.8\n")
        let session = InferenceSession(network: newCoords, retaining: .all)
        try session.forward(input)
        let out = try session.output(ofLayer: 0).values
        XCTAssertEqual(Array(out[0..<4]), [0, 1, 0.5, -1.5], "x and y: 2 * v - 0.5")
        XCTAssertEqual(Array(out[4...]), Array(input[4...]), "nothing else changes")
        let candidates = try DetectionDecoder.candidates(
            from: session, geometry: LetterboxGeometry(stretchingWidth: 2, height: 1, networkWidth: 2, networkHeight: 1), threshold: 0.5)
        XCTAssertEqual(candidates.count, 1, "only cell 0 has objectness 0.9 > 0.5")
        let box = try XCTUnwrap(candidates.first).box
        XCTAssertEqual(box.x, (0 + 0) / 2, "column 0 plus x' 0, over 2 columns")
        XCTAssertEqual(box.y, (0 + 0.5) / 1)
        XCTAssertEqual(box.width, 0.5 * 0.5 * 4 * 8 / 2, "tw^2 * 4 * anchor / network width")
        XCTAssertEqual(box.height, -1 * -1 * 4 * 16 / 1)
        XCTAssertEqual(try XCTUnwrap(candidates.first).probabilities, [0.9 * 0.8, 0] as [Float], "0.9 * 0.3 is below the threshold")
        XCTAssertEqual(DetectionDecoder.nmsKind(of: newCoords.plan), .diou(beta: 0.8))

        // Without new_coords: logistic first, then the scale.
        let classic = try network(String(format: Self.net, 2, 1, 7) + head)
        let classicSession = InferenceSession(network: classic, retaining: .all)
        try classicSession.forward(input)
        let logistic = { (v: Float) in 1 / (1 + expf(-v)) }
        let classicOut = try classicSession.output(ofLayer: 0).values
        for i in 0..<4 { XCTAssertEqual(classicOut[i], logistic(input[i]) * 2 - 0.5, accuracy: 1e-6) }
        XCTAssertEqual(classicOut[4], input[4], "w stays raw")
        for i in 8..<14 { XCTAssertEqual(classicOut[i], logistic(input[i]), accuracy: 1e-6) }
        XCTAssertEqual(DetectionDecoder.nmsKind(of: classic.plan), .default)
    }

    // MARK: NMS

    func testDistanceIoUSuppressesLessThanIoU() {
        let a = RelativeBox(x: 0.5, y: 0.5, width: 0.4, height: 0.4)
        let b = RelativeBox(x: 0.6, y: 0.5, width: 0.4, height: 0.4)
        // IoU 0.12 / 0.2 = 0.6; enclosing box 0.5 x 0.4, so d^2 / c^2 = 0.01 / 0.41.
        XCTAssertEqual(a.intersectionOverUnion(b), 0.6, accuracy: 1e-6)
        XCTAssertEqual(a.distanceIntersectionOverUnion(b, beta: 0.6), Float(0.6 - pow(0.01 / 0.41, 0.6)), accuracy: 1e-5)
        XCTAssertEqual(a.distanceIntersectionOverUnion(b, beta: 1), Float(0.6 - 0.01 / 0.41), accuracy: 1e-5)
        func survivors(_ kind: NMSKind) -> [Float] {
            var candidates = [BoxCandidate(box: a, objectness: 0.9, probabilities: [0.9]),
                              BoxCandidate(box: b, objectness: 0.8, probabilities: [0.8])]
            NonMaximumSuppression.apply(&candidates, classes: 1, threshold: 0.5, kind: kind)
            return candidates.map { $0.probabilities[0] }
        }
        XCTAssertEqual(survivors(.default), [0.9, 0], "IoU 0.6 > 0.5")
        XCTAssertEqual(survivors(.greedy), [0.9, 0.8], "DIoU with power 0.6: 0.49 < 0.5")
        XCTAssertEqual(survivors(.diou(beta: 1)), [0.9, 0], "DIoU with beta 1: 0.58 > 0.5")
        // Concentric boxes: no distance term, plain IoU; disjoint ones never suppress.
        XCTAssertEqual(a.distanceIntersectionOverUnion(RelativeBox(x: 0.5, y: 0.5, width: 0.2, height: 0.4), beta: 0.6), 0.5, accuracy: 1e-6)
        XCTAssertLessThan(a.distanceIntersectionOverUnion(RelativeBox(x: 2, y: 2, width: 0.1, height: 0.1), beta: 0.6), 0)
    }

    // MARK: cfg keys

    func testAlexeyABKeysAreDecoded() throws {
        let text = String(format: Self.net, 16, 16, 4) + """
            [convolutional]
            filters=8
            size=3
            stride=2
            stride_y=1
            dilation=2
            pad=1
            cbn=1
            activation=mish
            [maxpool]
            size=3
            stride_x=2
            [route]
            layers=-1
            groups=4
            group_id=3
            [shortcut]
            from=-1, -1
            weights_type=none
            [scale_channels]
            from=-2
            scale_wh=1
            activation=leaky
            [sam]
            from=0
            [yolo]
            anchors=1,2, 3,4
            num=2
            classes=3
            scale_x_y=1.05
            new_coords=1
            nms_kind=greedynms
            iou_thresh=0.2
            """
        let spec = try NetworkSpec.parse(text: text, file: "keys.cfg")
        XCTAssertEqual(spec.diagnostics, [])
        XCTAssertEqual(spec.layers[0].kind, .convolutional(ConvolutionalSpec(
            filters: 8, size: 3, strideX: 2, strideY: 1, dilation: 2, padding: 1, batchNormalize: true, activation: .mish)))
        XCTAssertEqual(spec.layers[1].kind, .maxpool(MaxpoolSpec(size: 3, stride: 1, strideX: 2, strideY: 1, padding: 2)))
        XCTAssertEqual(spec.layers[2].kind, .route(RouteSpec(layers: [1], groups: 4, groupID: 3)))
        XCTAssertEqual(spec.layers[3].kind, .shortcut(ShortcutSpec(from: [2, 2], activation: .linear, alpha: 1, beta: 1)))
        XCTAssertEqual(spec.layers[4].kind, .scaleChannels(ScaleChannelsSpec(from: 2, scaleWH: true, activation: .leaky)))
        XCTAssertEqual(spec.layers[5].kind, .sam(SamSpec(from: 0)))
        var yolo = YoloSpec(mask: [0, 1], anchors: [(1, 2), (3, 4)], classes: 3)
        yolo.scaleXY = 1.05
        yolo.newCoords = true
        yolo.nms = .greedy
        XCTAssertEqual(spec.layers[6].kind, .yolo(yolo))
        XCTAssertEqual(spec.dialect, .alexeyAB)
        // A 1x1 kernel ignores dilation, as in AlexeyAB's parser.
        let pointwise = try NetworkSpec.parse(text: String(format: Self.net, 4, 4, 1) + "[convolutional]\nsize=1\ndilation=3\n", file: "p.cfg")
        guard case .convolutional(let conv) = pointwise.layers[0].kind else { return XCTFail("not a convolution") }
        XCTAssertEqual(conv.dilation, 1)
    }
    // The dialect of the original cfgs and AlexeyAB's own is checked on those files (they are in
    // Weights/): AlexeyABCfgDialectTests, in DarknetReferenceTests.
}
