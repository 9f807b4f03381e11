@_spi(Testing) @testable import Darknet
import TestSupport
import XCTest

/// The im2col + sgemm convolution and the pooling kernels against direct, naive versions,
/// over tables of shapes. Every failure prints the parameters.
final class KernelTests: XCTestCase {
    struct ConvCase: CustomStringConvertible {
        var channels, height, width, filters, size, stride, pad, groups: Int
        var batchNormalize: Bool
        var activation: Activation
        var description: String {
            "c=\(channels) h=\(height) w=\(width) filters=\(filters) size=\(size) stride=\(stride) padding=\(pad) groups=\(groups) bn=\(batchNormalize) \(activation)"
        }
    }

    static let convCases: [ConvCase] = [
        .init(channels: 3, height: 13, width: 11, filters: 8, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 4, height: 9, width: 9, filters: 6, size: 3, stride: 2, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 8, height: 7, width: 5, filters: 5, size: 1, stride: 1, pad: 0, groups: 1, batchNormalize: false, activation: .linear),
        .init(channels: 8, height: 7, width: 5, filters: 4, size: 1, stride: 2, pad: 0, groups: 1, batchNormalize: false, activation: .logistic),
        .init(channels: 2, height: 10, width: 12, filters: 3, size: 5, stride: 1, pad: 2, groups: 1, batchNormalize: true, activation: .relu),
        .init(channels: 2, height: 10, width: 12, filters: 3, size: 5, stride: 3, pad: 0, groups: 1, batchNormalize: false, activation: .tanh),
        .init(channels: 6, height: 8, width: 8, filters: 6, size: 3, stride: 1, pad: 1, groups: 3, batchNormalize: true, activation: .elu),
        .init(channels: 4, height: 6, width: 6, filters: 4, size: 3, stride: 1, pad: 1, groups: 4, batchNormalize: false, activation: .selu),
        .init(channels: 3, height: 5, width: 5, filters: 2, size: 7, stride: 1, pad: 3, groups: 1, batchNormalize: false, activation: .ramp),
        .init(channels: 1, height: 1, width: 1, filters: 2, size: 1, stride: 1, pad: 0, groups: 1, batchNormalize: true, activation: .plse),
        .init(channels: 3, height: 4, width: 9, filters: 2, size: 2, stride: 2, pad: 0, groups: 1, batchNormalize: false, activation: .hardtan),
        .init(channels: 3, height: 6, width: 6, filters: 3, size: 3, stride: 1, pad: 0, groups: 1, batchNormalize: false, activation: .lhtan),
        .init(channels: 3, height: 6, width: 6, filters: 3, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .loggy),
        .init(channels: 3, height: 6, width: 6, filters: 3, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .relie),
        .init(channels: 3, height: 6, width: 6, filters: 3, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .stair),
        // Winograd shapes with more than 169 tiles (3x3, stride 1, padding 1, >= 32 channels), incl. partial tiles:
        // in bands (the last one partial: 9 bands of 2 tile rows, 2 of 1) or by the 36 GEMMs.
        .init(channels: 32, height: 56, width: 56, filters: 4, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 32, height: 55, width: 57, filters: 7, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .linear),
        .init(channels: 33, height: 6, width: 700, filters: 5, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .logistic),
        .init(channels: 32, height: 60, width: 60, filters: 16, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .relu),
        .init(channels: 32, height: 70, width: 90, filters: 20, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        // Tile-major Winograd shapes (up to 169 tiles), with filters not a multiple of 16 and partial tiles.
        .init(channels: 32, height: 24, width: 24, filters: 4, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 32, height: 23, width: 25, filters: 7, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .linear),
        .init(channels: 33, height: 6, width: 97, filters: 5, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .logistic),
        .init(channels: 32, height: 26, width: 26, filters: 16, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 32, height: 13, width: 13, filters: 20, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 40, height: 5, width: 7, filters: 17, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .logistic),
        .init(channels: 64, height: 9, width: 9, filters: 48, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .linear),
        .init(channels: 33, height: 2, width: 3, filters: 70, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .relu),
        // Banded im2col (small weights, a column matrix over 4 MB, a stride the direct kernels do not
        // take): 200 output rows in bands.
        .init(channels: 4, height: 600, width: 600, filters: 5, size: 3, stride: 3, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        // Stride-2 sliding window: column tails of 1-3 vectors in every SIMD variant, filter tails,
        // channel chunks (16) with a partial last one, several bands per thread (300 wide x 40
        // channels: one output row per band), odd and even kernels, with and without padding.
        .init(channels: 40, height: 12, width: 300, filters: 9, size: 3, stride: 2, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 17, height: 15, width: 97, filters: 13, size: 3, stride: 2, pad: 1, groups: 1, batchNormalize: false, activation: .relu),
        .init(channels: 32, height: 21, width: 67, filters: 8, size: 3, stride: 2, pad: 0, groups: 1, batchNormalize: true, activation: .linear),
        .init(channels: 5, height: 16, width: 80, filters: 20, size: 5, stride: 2, pad: 2, groups: 1, batchNormalize: false, activation: .logistic),
        .init(channels: 3, height: 9, width: 34, filters: 4, size: 2, stride: 2, pad: 0, groups: 1, batchNormalize: true, activation: .leaky),
        // Sliding-window shapes (stride 1, 1 group, <= 16 channels), wide enough for every SIMD
        // block size, with column and filter tails, and each fused / separate activation.
        .init(channels: 3, height: 9, width: 101, filters: 19, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .leaky),
        .init(channels: 16, height: 7, width: 64, filters: 8, size: 3, stride: 1, pad: 1, groups: 1, batchNormalize: false, activation: .relu),
        .init(channels: 5, height: 11, width: 50, filters: 9, size: 5, stride: 1, pad: 2, groups: 1, batchNormalize: true, activation: .linear),
        .init(channels: 2, height: 6, width: 70, filters: 3, size: 2, stride: 1, pad: 0, groups: 1, batchNormalize: false, activation: .logistic),
        .init(channels: 16, height: 17, width: 49, filters: 33, size: 1, stride: 1, pad: 1, groups: 1, batchNormalize: true, activation: .tanh),
    ]

    /// A network of one convolution as `c` describes it.
    private static func cfg(for c: ConvCase) -> String {
        """
        [net]
        width=\(c.width)
        height=\(c.height)
        channels=\(c.channels)
        [convolutional]
        filters=\(c.filters)
        size=\(c.size)
        stride=\(c.stride)
        padding=\(c.pad)
        groups=\(c.groups)
        batch_normalize=\(c.batchNormalize ? 1 : 0)
        activation=\(c.activation.rawValue)
        """
    }

    func testConvolutionMatchesDirectConvolution() throws {
        for options in Self.convolutionOptions { try checkConvolutions(options: options) }
    }

    /// Every path: the fastest (F(4x4, 3x3), tile-major or in bands), F(2x2, 3x3) and the 36
    /// GEMMs instead (their weight limits lowered to 0), and the im2col reference.
    private static let convolutionOptions: [PlanOptions] = {
        var f23 = PlanOptions()
        f23.fewTileWeightLimit = 0
        f23.bandWeightLimit = 0
        return [PlanOptions(), f23, PlanOptions(convolutionStrategy: .im2colOnly)]
    }()

    /// The stride-2 sliding window splits output rows over the threads, each thread with its own
    /// band buffer: every thread count, and every cut of the rows, must give the same bits.
    func testStride2SlidingWindowIsBitIdenticalForOneTwoAndThreeThreads() throws {
        var checked = 0
        for (n, c) in Self.convCases.enumerated() where c.stride == 2 && c.groups == 1 {
            let spec = try NetworkSpec.parse(text: Self.cfg(for: c), file: "stride2-\(n).cfg")
            let network = try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: UInt64(n)))
            guard network.plan.layers[0].algorithm == .slidingWindowStride2 else { continue }
            checked += 1
            var generator = SplitMix64(seed: 7 + UInt64(n))
            let input = (0..<network.inputShape.count).map { _ in generator.nextFloat(in: -2...2) }
            var outputs: [[Float]] = []
            for split in [ThreadSplit(threads: 1), ThreadSplit(threads: 2), ThreadSplit(threads: 3),
                          ThreadSplit(threads: 3, finestPieces: true)] {
                let session = InferenceSession(network: network, retaining: .all, split: split)
                try session.forward(input)
                outputs.append(try session.output(ofLayer: 0).values)
            }
            XCTAssertEqual(outputs[1], outputs[0], "\(c), 2 threads vs 1")
            XCTAssertEqual(outputs[2], outputs[0], "\(c), 3 threads vs 1")
            XCTAssertEqual(outputs[3], outputs[0], "\(c), 3 threads in the finest pieces vs 1")
        }
        XCTAssertGreaterThanOrEqual(checked, 5, "the stride-2 cases must take the stride-2 sliding window")
    }

    /// The C kernels exist once per instruction set; each set this CPU runs must agree. The set
    /// plans take by default is testConvolutionMatchesDirectConvolution's and
    /// testMaxpoolMatchesNaivePooling's already (under emulation, on aarch64, these checks take
    /// a minute a set).
    func testEveryVectorKernelSetMatchesTheNaiveLayers() throws {
        for kernels in CPUFeatures.current.supportedVectorKernels where kernels != CPUFeatures.current.vectorKernels {
            for var options in Self.convolutionOptions.dropLast() {
                options.vectorKernels = kernels
                try checkConvolutions(options: options)
            }
            try checkMaxpools(kernels)
        }
    }

    /// Weights read straight from a file are checked by the transform's report of the largest
    /// scaled weight: it must be exact in every layout and variant, and not finite when a weight
    /// is NaN or infinite, wherever it lies (first kernel, last kernel of a partial block). The
    /// layers are large enough to be laid out by two workers, whose reports are combined.
    func testWinogradWeightTransformsReportTheLargestScaledWeight() {
        let filters = 261, channels = 256, count = filters * channels * 9
        var generator = SplitMix64(seed: 11)
        let weights = (0..<count).map { _ in generator.nextFloat(in: -2...2) }
        let scales = (0..<filters).map { _ in generator.nextFloat(in: 0.1...3) }
        let expected = weights.indices.map { abs(weights[$0] * scales[$0 / (channels * 9)]) }.max()!
        typealias Transform = (UnsafePointer<Float>, VectorKernels) -> Float
        let layouts: [(String, Transform)] = [
            ("F(4x4,3x3) filter-major", {
                WinogradF43.transformWeights($0, filterScales: scales, filters: filters, channels: channels,
                                             kernels: $1).largestScaledWeight
            }),
            ("F(4x4,3x3) channel-major", {
                WinogradF43.transformWeights($0, filterScales: scales, filters: filters, channels: channels,
                                             channelMajor: true, kernels: $1).largestScaledWeight
            }),
            ("F(2x2,3x3)", {
                WinogradF23.transformWeights($0, filterScales: scales, filters: filters, channels: channels,
                                             kernels: $1).largestScaledWeight
            }),
        ]
        for level in CPUFeatures.current.supportedVectorKernels {
            for (name, layout) in layouts {
                let transform = { (weights: UnsafePointer<Float>) in layout(weights, level) }
                XCTAssertEqual(weights.withUnsafeBufferPointer { transform($0.baseAddress!) }, expected, "\(name) \(level)")
                for (position, bad) in [(0, Float.nan), (count - 1, -.infinity), (count / 2, .infinity)] {
                    var broken = weights
                    broken[position] = bad
                    let largest = broken.withUnsafeBufferPointer { transform($0.baseAddress!) }
                    XCTAssertFalse(largest.isFinite, "\(name) \(level): \(bad) at \(position)")
                }
            }
        }
    }

    func testWinogradIsChosenForEligibleLayers() throws {
        let spec = try NetworkSpec.parse(text: "[net]\nwidth=24\nheight=24\nchannels=32\n[convolutional]\nfilters=4\nsize=3\npad=1\n[convolutional]\nfilters=4\nsize=3\nstride=2\npad=1\n[convolutional]\nsize=1\n", file: "algorithms.cfg")
        let pointwise: ConvolutionAlgorithm = CPUFeatures.current.vectorKernels == .avx512
            && !CPUFeatures.current.blas.hasAVX512Kernels ? .pointwise : .direct
        XCTAssertEqual(try NetworkPlan(spec: spec).layers.map(\.algorithm), [.winogradFewTiles, .slidingWindowStride2, pointwise])
        let large = try NetworkSpec.parse(text: "[net]\nwidth=56\nheight=56\nchannels=32\n[convolutional]\nfilters=4\nsize=3\npad=1\n", file: "large.cfg")
        XCTAssertEqual(try NetworkPlan(spec: large).layers.map(\.algorithm), [.winogradBands], "196 tiles, small weights: bands")
        let heavy = try NetworkSpec.parse(text: "[net]\nwidth=56\nheight=56\nchannels=128\n[convolutional]\nfilters=128\nsize=3\npad=1\n", file: "heavy.cfg")
        XCTAssertEqual(try plan(heavy, l2: 512 << 10), [.winograd], "2.4 MB of weights, a band past 3/4 of 512 KiB: the 36 GEMMs")
        XCTAssertEqual(try plan(heavy, l2: nil), [.winograd], "an unknown L2 is taken as 512 KiB")
        XCTAssertEqual(try plan(heavy, l2: 1 << 20), [.winogradBands], "a 516 KiB band fits 3/4 of a 1 MiB L2: bands")
        // YOLOv3's 52x52 128 -> 256 (169 tiles, 4.5 MiB of weights, a band of one tile row 702 KiB).
        let yolo52 = try NetworkSpec.parse(text: "[net]\nwidth=52\nheight=52\nchannels=128\n[convolutional]\nfilters=256\nsize=3\npad=1\n",
                                           file: "yolo52.cfg")
        XCTAssertEqual(try plan(yolo52, l2: 512 << 10), [.winogradFewTiles], "512 KiB L2: the whole-layer tile-major path")
        XCTAssertEqual(try plan(yolo52, l2: 1 << 20), [.winogradBands], "1 MiB L2: bands, the weights read from L3 by each")
        XCTAssertEqual(try plan(yolo52, l2: 1 << 20, bandLimit: 4 << 20), [.winogradFewTiles],
                       "past the large-band weight limit: the whole-layer path")
        let yolo26 = try NetworkSpec.parse(text: "[net]\nwidth=26\nheight=26\nchannels=256\n[convolutional]\nfilters=512\nsize=3\npad=1\n",
                                           file: "yolo26.cfg")
        XCTAssertEqual(try plan(yolo26, l2: 4 << 20), [.winogradFewTiles], "fewer than 169 tiles: never bands")
        XCTAssertEqual(try NetworkPlan(spec: spec, options: PlanOptions(convolutionStrategy: .im2colOnly)).layers.map(\.algorithm),
                       [.im2col, .im2col, .direct])
    }

    /// The algorithms planned for `spec` on this machine's instruction set with an L2 of `l2` bytes.
    private func plan(_ spec: NetworkSpec, l2: Int?, bandLimit: Int? = nil) throws -> [ConvolutionAlgorithm?] {
        var options = PlanOptions()
        options.cpu.l2CacheBytes = l2
        if let bandLimit { options.tuning.largeBandWeightLimit = bandLimit }
        return try NetworkPlan(spec: spec, options: options).layers.map(\.algorithm)
    }

    private func checkConvolutions(options: PlanOptions) throws {
        let strategy = options.convolutionStrategy
        var algorithms: [ConvolutionAlgorithm] = []
        defer {
            if strategy == .fastest {
                let fewTiles: ConvolutionAlgorithm = options.fewTileWeightLimit == 0 ? .winogradF23 : .winogradFewTiles
                let manyTiles: ConvolutionAlgorithm = options.bandWeightLimit == 0 ? .winograd : .winogradBands
                XCTAssertEqual(algorithms.filter { $0 == manyTiles }.count, 5, "Winograd cases over 169 tiles must take \(manyTiles)")
                XCTAssertEqual(algorithms.filter { $0 == fewTiles }.count, 8, "tile-major Winograd cases must take \(fewTiles)")
                XCTAssertGreaterThanOrEqual(algorithms.filter { $0 == .slidingWindow }.count, 5, "sliding-window cases must take that path")
                XCTAssertEqual(algorithms.filter { $0 == .im2colBands }.count, 1, "the banded case must take that path")
                XCTAssertGreaterThanOrEqual(algorithms.filter { $0 == .slidingWindowStride2 }.count, 5,
                                            "stride-2 cases must take the stride-2 sliding window")
            }
        }
        for (n, c) in Self.convCases.enumerated() {
            let spec = try NetworkSpec.parse(text: Self.cfg(for: c), file: "case\(n).cfg")
            let builder = WeightsWriter()
            let network = try Network(spec: spec, weights: try builder.randomBytes(for: spec, seed: UInt64(n)),
                                      options: options)
            let shape = network.inputShape
            algorithms.append(network.plan.layers[0].algorithm!)
            var generator = SplitMix64(seed: 99 + UInt64(n))
            let input = (0..<shape.count).map { _ in generator.nextFloat(in: -2...2) }
            let session = InferenceSession(network: network, retaining: .all)
            try session.forward(input)
            guard case .convolutional(let conv) = spec.layers[0].kind else { return XCTFail("not a convolution") }
            let expected = NaiveLayers.convolution(input: input, shape: shape, spec: conv,
                                                   parameters: WeightsWriter.randomArrays(for: try NetworkPlan(spec: spec), seed: UInt64(n))[0])
            let actual = try session.output(ofLayer: 0).values
            assertClose(actual, expected, tolerance: 1e-4, "for \(c), \(strategy), \(network.plan.layers[0].algorithm!)")
        }
    }

    /// A sliding-window convolution and the 2x2/2 maxpool after it run as one pass when the session
    /// keeps only the pool's output: every SIMD variant and thread count must give the bits of the
    /// two layers run apart (column tails of every block size, filter tails, 3x3 and 5x5).
    func testConvolutionFusedWithMaxpoolEqualsTheTwoLayersApart() throws {
        let cases: [ConvCase] = [(3, 8, 100, 19, 3, Activation.leaky), (16, 6, 64, 8, 3, .relu), (5, 12, 50, 9, 5, .linear),
                                 (2, 4, 2, 3, 3, .leaky), (4, 6, 98, 4, 3, .leaky), (3, 10, 416, 16, 3, .leaky)].map {
            ConvCase(channels: $0.0, height: $0.1, width: $0.2, filters: $0.3, size: $0.4, stride: 1, pad: $0.4 / 2,
                     groups: 1, batchNormalize: true, activation: $0.5)
        }
        for level in CPUFeatures.current.supportedVectorKernels {
            var options = PlanOptions()
            options.vectorKernels = level
            for (n, c) in cases.enumerated() {
                let spec = try NetworkSpec.parse(text: Self.cfg(for: c) + "\n[maxpool]\nsize=2\nstride=2\n",
                                                 file: "pooled\(n).cfg")
                let network = try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: UInt64(n)),
                                          options: options)
                XCTAssertEqual(network.plan.fusibleMaxpools, [1], "\(c)")
                var generator = SplitMix64(seed: 40 + UInt64(n))
                let input = (0..<network.inputShape.count).map { _ in generator.nextFloat(in: -2...2) }
                try assertFusedLayerEqualsTheLayersApart(network, input: input, layer: 1, "\(c), \(level)")
            }
        }
    }

    /// Pools the fused kernel cannot compute stay separate layers.
    func testOnlyPoolsTheConvolutionCanComputeAreFused() throws {
        func fusible(_ body: String, width: Int = 8) throws -> Set<Int> {
            let text = "[net]\nwidth=\(width)\nheight=8\nchannels=3\n[convolutional]\nfilters=4\nsize=3\npad=1\n" + body
            return try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: "fusion.cfg")).fusibleMaxpools
        }
        XCTAssertEqual(try fusible("activation=leaky\n[maxpool]\nsize=2\nstride=2\n"), [1])
        XCTAssertEqual(try fusible("activation=logistic\n[maxpool]\nsize=2\nstride=2\n"), [], "activation applied after the kernel")
        XCTAssertEqual(try fusible("activation=leaky\n[maxpool]\nsize=2\nstride=2\n", width: 9), [], "odd width")
        XCTAssertEqual(try fusible("activation=leaky\n[maxpool]\nsize=2\nstride=1\n"), [], "stride 1")
        XCTAssertEqual(try fusible("activation=leaky\n[maxpool]\nsize=3\nstride=2\n"), [], "3x3 window")
        XCTAssertEqual(try fusible("activation=leaky\n[maxpool]\nsize=2\nstride=2\n[route]\nlayers=-2\n"), [],
                       "the convolution's output is read again")
    }

    func testMaxpoolMatchesNaivePooling() throws { try checkMaxpools(CPUFeatures.current.vectorKernels) }

    private func checkMaxpools(_ kernels: VectorKernels) throws {
        var options = PlanOptions()
        options.vectorKernels = kernels
        let cases: [(h: Int, w: Int, size: Int, stride: Int, padding: Int?)] = [
            (8, 8, 2, 2, nil), (13, 13, 2, 1, nil), (7, 7, 2, 2, nil), (1, 1, 2, 2, nil), (1, 5, 2, 1, nil), (5, 1, 2, 2, nil), (7, 9, 3, 2, nil), (5, 5, 3, 1, 2), (6, 5, 5, 1, nil), (9, 9, 13, 1, nil), (4, 4, 1, 1, nil),
            // Wide enough for the SIMD 2x2 paths (16 lanes) with tails, odd sizes clamping at the edges.
            (9, 70, 2, 2, nil), (6, 67, 2, 2, nil), (5, 41, 2, 1, nil), (4, 33, 2, 1, nil), (3, 100, 2, 3, nil),
        ]
        for (n, c) in cases.enumerated() {
            let padding = c.padding.map { "padding=\($0)\n" } ?? ""
            let cfg = "[net]\nwidth=\(c.w)\nheight=\(c.h)\nchannels=3\n[maxpool]\nsize=\(c.size)\nstride=\(c.stride)\n\(padding)"
            let spec = try NetworkSpec.parse(text: cfg, file: "pool\(n).cfg")
            let network = try Network(spec: spec, weights: WeightsWriter().header(), options: options)
            var generator = SplitMix64(seed: UInt64(n))
            let input = (0..<network.inputShape.count).map { _ in generator.nextFloat(in: -3...3) }
            let session = InferenceSession(network: network, retaining: .all)
            try session.forward(input)
            guard case .maxpool(let pool) = spec.layers[0].kind else { return XCTFail("not a maxpool") }
            XCTAssertEqual(try session.output(ofLayer: 0).values,
                           NaiveLayers.maxpool(input: input, shape: network.inputShape, spec: pool), "case \(c), \(kernels)")
        }
    }

    func testUpsampleRouteShortcutAndYolo() throws {
        let cfg = """
            [net]
            width=4
            height=3
            channels=2
            [upsample]
            stride=2
            scale=0.5
            [maxpool]
            size=2
            stride=2
            [route]
            layers=-1,1
            [shortcut]
            from=-2
            activation=leaky
            alpha=2
            beta=-1
            [convolutional]
            filters=12
            size=1
            activation=linear
            [yolo]
            mask=1,0
            anchors=1,2,3,4
            classes=1
            num=2
            """
        let spec = try NetworkSpec.parse(text: cfg, file: "mixed.cfg")
        // The route doubles the channels, so the shortcut adds layer 1's 2 channels onto the
        // first 2 of 4, as Darknet does (ResNet cfgs; ZooSpecTests checks the values).
        XCTAssertEqual(try NetworkPlan(spec: spec).layers[3].outputShape, TensorShape(channels: 4, height: 3, width: 4))
        let fixed = try NetworkSpec.parse(text: cfg.replacingOccurrences(of: "layers=-1,1", with: "layers=-1"), file: "mixed.cfg")
        let network = try Network(spec: fixed, weights: try WeightsWriter().randomBytes(for: fixed, seed: 5))
        let input = (0..<network.inputShape.count).map { Float($0) - 10 }
        let session = InferenceSession(network: network, retaining: .all)
        try session.forward(input)

        let up = try session.output(ofLayer: 0)
        XCTAssertEqual(up.shape, TensorShape(channels: 2, height: 6, width: 8))
        for c in 0..<2 { for y in 0..<6 { for x in 0..<8 {
            XCTAssertEqual(up.values[(c * 6 + y) * 8 + x], 0.5 * input[(c * 3 + y / 2) * 4 + x / 2])
        } } }
        let pooled = try session.output(ofLayer: 1).values
        XCTAssertEqual(try session.output(ofLayer: 2).values, pooled)
        let sum = try session.output(ofLayer: 3).values
        for i in sum.indices {
            let x = 2 * pooled[i] - pooled[i]
            XCTAssertEqual(sum[i], x > 0 ? x : 0.1 * x, accuracy: 1e-6)
        }
        let head = try session.output(ofLayer: 4).values
        let yolo = try session.output(ofLayer: 5).values
        let plane = 12
        for i in head.indices {
            let entry = (i / plane) % 6
            let expected = (entry == 2 || entry == 3) ? head[i] : 1 / (1 + expf(-head[i]))
            XCTAssertEqual(yolo[i], expected, accuracy: 1e-6, "element \(i) entry \(entry)")
        }
    }
}
