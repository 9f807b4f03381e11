/// How a convolution is computed.
public enum ConvolutionAlgorithm: Sendable, Equatable {
    /// 1x1, stride 1, no padding: the input already is the GEMM's B matrix.
    case direct
    /// im2col into the workspace, then one GEMM per group (the general path, and the reference).
    case im2col
    /// im2col one band of output rows at a time into a per-thread buffer that stays in cache,
    /// each band's GEMM right after: large outputs with small weights that no direct kernel takes
    /// (strides above 2, dilation), whose whole column matrix would stream through memory twice.
    case im2colBands
    /// Winograd F(4x4, 3x3): 36 GEMMs on transformed tiles (3x3, stride 1, padding 1, 1 group).
    case winograd
    /// Winograd F(4x4, 3x3) for small outputs (up to 169 tiles: 52x52): the element-wise
    /// products by a register-blocked, tile-major kernel that reads each transformed weight once,
    /// where 36 thin GEMMs would re-pack every weight. Its weights take 4x the memory of im2col's.
    case winogradFewTiles
    /// Winograd F(2x2, 3x3) with the few-tile product kernel, for small outputs whose F(4x4, 3x3)
    /// weights would be too large to stream every pass: 16 floats per kernel instead of 36.
    case winogradF23
    /// Winograd F(4x4, 3x3) for large outputs, with the tile-major product kernel on a band of
    /// tile rows at a time: each band's transformed input and products stay in the thread's
    /// cache, where the 36 GEMMs' would stream through memory (104x104 and up).
    case winogradBands
    /// Each output summed over its window in SIMD registers from a zero-padded copy of the
    /// input (stride 1, 1 group, few input channels): no im2col copy, no thin GEMM.
    case slidingWindow
    /// The sliding window at stride 2 (see `SlidingWindowStride2`): each thread splits a band of
    /// input rows into even and odd columns in a buffer that stays in cache, so a vector of outputs
    /// reads adjacent values.
    case slidingWindowStride2
}

/// Which fast paths the planner may choose.
public enum ConvolutionStrategy: Sendable, Equatable {
    /// The fastest path each layer supports.
    case fastest
    /// im2col + GEMM everywhere (1x1 stride-1 layers still skip im2col): the reference path.
    case im2colOnly
}

/// One layer with its shapes, cost and data dependencies worked out.
public struct LayerPlan: Sendable, Equatable {
    /// The layer as the cfg describes it.
    public let spec: LayerSpec
    /// The shape this layer reads (the previous layer's output, or the network input).
    public let inputShape: TensorShape
    /// The shape this layer writes.
    public let outputShape: TensorShape
    /// Floating-point operations of one forward pass (multiply and add count 2), Darknet's way:
    /// only convolutions count.
    public let flops: Int
    /// Layers whose outputs this layer reads; `-1` is the network input.
    public let sources: [Int]
    /// Values of the im2col workspace this layer needs (0 when it needs none).
    public let workspaceCount: Int
    /// Learned values (weights and biases after batch-norm folding) this layer holds.
    public let parameterCount: Int
    /// For convolutions, how they are computed.
    public let algorithm: ConvolutionAlgorithm?
    /// Floats the parameters take in memory, laid out for the algorithm (Winograd's transformed
    /// 6x6 kernels take 4x the 3x3 ones).
    public let residentParameterCount: Int

    public var index: Int { spec.index }
}

/// Limits checked while planning.
public struct PlanOptions: Sendable, Equatable {
    /// Refuse networks whose weights, activations, workspace and one thread's scratch need more
    /// bytes than this (each further thread of a session adds `threadScratchCount` floats).
    public var memoryLimit: Int
    /// Which convolution paths may be used.
    public var convolutionStrategy: ConvolutionStrategy

    /// Largest F(4x4, 3x3) weights (bytes) a small-output layer takes `.winogradFewTiles` for;
    /// above, `.winogradF23`. Tests lower it to reach the F(2x2, 3x3) path on small layers.
    package var fewTileWeightLimit = ConvolutionAlgorithm.fewTileWeightLimit
    /// Largest F(4x4, 3x3) weights (bytes) a large-output layer takes `.winogradBands` for;
    /// above, `.winograd`. Tests lower it to reach the 36 GEMMs on small layers.
    package var bandWeightLimit = ConvolutionAlgorithm.bandWeightLimit

    /// Unknown and repeated cfg keys are errors (`CfgError.Reason.rejectedKey`) instead of
    /// diagnostics: `Network`'s initialisers check it before planning (see `NetworkSpec.checkKeys`).
    public var rejectsUnknownKeys: Bool

    /// Default: 4 GiB, fastest paths, unknown keys reported as diagnostics.
    public init(memoryLimit: Int = 4 << 30, convolutionStrategy: ConvolutionStrategy = .fastest,
                rejectsUnknownKeys: Bool = false) {
        self.memoryLimit = memoryLimit
        self.convolutionStrategy = convolutionStrategy
        self.rejectsUnknownKeys = rejectsUnknownKeys
    }
}

/// The shapes, costs and data flow of a whole network: everything known before any
/// memory is allocated or any weight is read.
public struct NetworkPlan: Sendable, Equatable {
    /// The cfg file the plan was made from, for messages.
    public let file: String
    /// The input the network expects.
    public let inputShape: TensorShape
    /// Every layer, in order.
    public let layers: [LayerPlan]
    /// Values of the shared im2col workspace (the largest any layer needs).
    public let workspaceCount: Int
    /// Scratch floats each thread needs for the Winograd transforms (0 without Winograd layers).
    public let threadScratchCount: Int
    /// Number of learned parameters (floats) the weights file must supply after folding.
    public let parameterCount: Int
    /// `[maxpool]` layers the sliding-window convolution right before them can compute in the same
    /// pass (see `SlidingWindowConvolution.canPool`): the pool is that convolution's only reader.
    /// A session fuses them unless it keeps the convolution's output.
    package let fusibleMaxpools: Set<Int>
    /// Floats the parameters take in memory, laid out for each layer's algorithm.
    public var residentParameterCount: Int { layers.reduce(0) { $0 &+ $1.residentParameterCount } }

    /// Total floating-point operations of one forward pass.
    public var flops: Int { layers.reduce(0) { $0 + $1.flops } }

    /// Plans `spec`, validating every connection. An error names the cfg file and the line of
    /// the layer's section, and carries the cfg's diagnostics.
    public init(spec: NetworkSpec, options: PlanOptions = PlanOptions()) throws(PlanError) {
        do {
            try self.init(unlocated: spec, options: options)
        } catch {
            throw error.located(in: spec)
        }
    }

    private init(unlocated spec: NetworkSpec, options: PlanOptions) throws(PlanError) {
        let input = TensorShape(channels: spec.net.channels, height: spec.net.height, width: spec.net.width)
        let networkOverflow = PlanError(layer: -1, section: "net", reason: .sizeOverflow)
        guard Self.fitsInt32(input) else { throw networkOverflow }
        var layers: [LayerPlan] = []
        var workspace = 0
        var parameters = 0
        for layer in spec.layers {
            let previous = layer.index == 0 ? input : layers[layer.index - 1].outputShape
            let planned = try Self.plan(layer, input: previous, planned: layers, options: options)
            workspace = max(workspace, planned.workspaceCount)
            parameters &+= planned.parameterCount
            layers.append(planned)
        }
        self.file = spec.file
        self.inputShape = input
        self.layers = layers
        self.workspaceCount = workspace
        self.parameterCount = parameters
        self.fusibleMaxpools = Self.fusibleMaxpools(layers)
        self.threadScratchCount = layers.compactMap { layer -> Int? in
            guard let algorithm = layer.algorithm else { return nil }
            if algorithm == .im2colBands, case .convolutional(let conv) = layer.spec.kind {
                return Im2colBands(conv, inputShape: layer.inputShape, outputShape: layer.outputShape).scratchCount
            }
            if algorithm == .slidingWindowStride2, case .convolutional(let conv) = layer.spec.kind {
                return SlidingWindowStride2(conv, inputShape: layer.inputShape, outputShape: layer.outputShape).scratchCount
            }
            guard algorithm.isWinograd else { return nil }
            return WinogradConvolution(algorithm: algorithm, inputShape: layer.inputShape, outputShape: layer.outputShape,
                                       activation: .linear).scratchCount
        }.max() ?? 0

        // Summed again with checks: a total that wrapped around could slip under the limit.
        var floats = workspace
        for count in [input.count, threadScratchCount] + layers.flatMap({ [$0.outputShape.count, $0.residentParameterCount] }) {
            let (sum, overflow) = floats.addingReportingOverflow(count)
            guard !overflow else { throw networkOverflow }
            floats = sum
        }
        let bytes = floats.multipliedReportingOverflow(by: MemoryLayout<Float>.size)
        guard !bytes.overflow else { throw networkOverflow }
        guard bytes.partialValue <= options.memoryLimit else {
            throw PlanError(layer: -1, section: "net", reason: .memoryLimitExceeded(bytes: bytes.partialValue, limit: options.memoryLimit))
        }
    }

    private static func fusibleMaxpools(_ layers: [LayerPlan]) -> Set<Int> {
        var readers = [Int](repeating: 0, count: layers.count)
        for layer in layers { for source in layer.sources where source >= 0 { readers[source] += 1 } }
        return Set(layers.indices.filter { index in
            guard index > 0, case .maxpool(let pool) = layers[index].spec.kind,
                  case .convolutional(let conv) = layers[index - 1].spec.kind,
                  layers[index - 1].algorithm == .slidingWindow, readers[index - 1] == 1,
                  layers[index].sources == [index - 1] else { return false }
            return SlidingWindowConvolution.canPool(pool, after: conv, output: layers[index - 1].outputShape,
                                                    pooled: layers[index].outputShape)
        })
    }

    /// Whether `channels * height * width` is below 2^31 (tensor sizes and BLAS dimensions are
    /// 32-bit in Darknet and in the kernels).
    private static func fitsInt32(_ shape: TensorShape) -> Bool {
        let area = shape.height.multipliedReportingOverflow(by: shape.width)
        let total = area.partialValue.multipliedReportingOverflow(by: shape.channels)
        return !area.overflow && !total.overflow && total.partialValue < Int(Int32.max)
    }

    private static func plan(_ layer: LayerSpec, input: TensorShape, planned: [LayerPlan],
                             options: PlanOptions) throws(PlanError) -> LayerPlan {
        let index = layer.index
        let previousSource = index - 1
        func fail(_ reason: PlanError.Reason) -> PlanError {
            PlanError(layer: index, section: layer.kind.sectionName, reason: reason)
        }
        func checked(_ shape: TensorShape) throws(PlanError) -> TensorShape {
            guard fitsInt32(shape) else { throw fail(.sizeOverflow) }
            return shape
        }
        func product(_ factors: Int...) throws(PlanError) -> Int {
            var result = 1
            for factor in factors {
                let (value, overflow) = result.multipliedReportingOverflow(by: factor)
                guard !overflow else { throw fail(.sizeOverflow) }
                result = value
            }
            return result
        }
        func make(_ output: TensorShape, flops: Int = 0, sources: [Int]? = nil, workspace: Int = 0,
                  parameters: Int = 0, resident: Int? = nil,
                  algorithm: ConvolutionAlgorithm? = nil) throws(PlanError) -> LayerPlan {
            LayerPlan(spec: layer, inputShape: input, outputShape: try checked(output), flops: flops,
                      sources: sources ?? [previousSource], workspaceCount: workspace, parameterCount: parameters,
                      algorithm: algorithm, residentParameterCount: resident ?? parameters)
        }

        switch layer.kind {
        case .convolutional(let conv):
            guard input.channels % conv.groups == 0 else {
                throw fail(.channelsNotDivisibleByGroups(channels: input.channels, groups: conv.groups))
            }
            guard conv.size <= input.width + 2 * conv.padding, conv.size <= input.height + 2 * conv.padding else {
                throw fail(.windowLargerThanInput(window: conv.size, input: input, padding: conv.padding))
            }
            let output = try checked(TensorShape(
                channels: conv.filters,
                height: (input.height + 2 * conv.padding - conv.size) / conv.strideY + 1,
                width: (input.width + 2 * conv.padding - conv.size) / conv.strideX + 1))
            let kernelArea = try product(input.channels / conv.groups, conv.size, conv.size)
            // BLAS takes the kernel area (GEMM's k and lda) as a 32-bit int.
            guard kernelArea < Int(Int32.max) else { throw fail(.sizeOverflow) }
            let flops = try product(2, conv.filters, kernelArea, output.planeSize)
            let algorithm = ConvolutionAlgorithm.choose(for: conv, inputChannels: input.channels, outputHeight: output.height,
                                                        outputWidth: output.width, strategy: options.convolutionStrategy,
                                                        fewTileWeightLimit: options.fewTileWeightLimit,
                                                        bandWeightLimit: options.bandWeightLimit)
            let workspace: Int
            switch algorithm {
            case .direct: workspace = 0
            case .slidingWindow:
                workspace = try product(input.channels, input.height + 2 * conv.padding,
                                        SlidingWindowConvolution.paddedWidth(outputWidth: output.width, size: conv.size))
            case .im2col: workspace = try product(kernelArea, output.planeSize)
            case .im2colBands, .slidingWindowStride2: workspace = 0  // per-thread bands, in the thread scratch
            case .winograd, .winogradFewTiles, .winogradF23, .winogradBands:
                workspace = WinogradConvolution(algorithm: algorithm, inputShape: input, outputShape: output,
                                                activation: conv.activation).workspaceCount
            }
            let parameters = try product(conv.filters, kernelArea + 1)
            var resident = parameters
            let transformed: (elements: Int, filters: Int)? = switch algorithm {
            case .winograd: (WinogradF43.elements, conv.filters)
            case .winogradFewTiles, .winogradBands: (WinogradF43.elements, WinogradF43.paddedFilters(conv.filters))
            case .winogradF23: (WinogradF23.elements, WinogradF43.paddedFilters(conv.filters))
            case .direct, .im2col, .im2colBands, .slidingWindow, .slidingWindowStride2: nil
            }
            if let transformed {
                let (sum, overflow) = try product(transformed.elements, transformed.filters, input.channels)
                    .addingReportingOverflow(conv.filters)
                guard !overflow else { throw fail(.sizeOverflow) }
                resident = sum
            }
            return try make(output, flops: flops, workspace: workspace, parameters: parameters, resident: resident,
                            algorithm: algorithm)

        case .maxpool(let pool):
            guard pool.size <= input.width + pool.padding, pool.size <= input.height + pool.padding else {
                throw fail(.windowLargerThanInput(window: pool.size, input: input, padding: pool.padding))
            }
            let output = TensorShape(channels: input.channels,
                                     height: (input.height + pool.padding - pool.size) / pool.strideY + 1,
                                     width: (input.width + pool.padding - pool.size) / pool.strideX + 1)
            return try make(output, workspace: try maxpoolWorkspace(pool, input: input, output: output, layer: index))

        case .route(let route):
            let first = planned[route.layers[0]].outputShape
            var channels = 0
            for source in route.layers {
                let shape = planned[source].outputShape
                guard shape.height == first.height, shape.width == first.width else {
                    throw fail(.routeSizeMismatch(first: first, other: shape, otherLayer: source))
                }
                // AlexeyAB slices each source's values in `groups` equal runs: whole channels only.
                guard shape.channels % route.groups == 0 else {
                    throw fail(.channelsNotDivisibleByGroups(channels: shape.channels, groups: route.groups))
                }
                channels += shape.channels / route.groups
            }
            return try make(TensorShape(channels: channels, height: first.height, width: first.width), sources: route.layers)

        case .upsample(let up):
            let height = input.height.multipliedReportingOverflow(by: up.stride)
            let width = input.width.multipliedReportingOverflow(by: up.stride)
            guard !height.overflow, !width.overflow else { throw fail(.sizeOverflow) }
            return try make(TensorShape(channels: input.channels, height: height.partialValue, width: width.partialValue))

        case .shortcut(let shortcut):
            if shortcut.from.count == 1 {
                // Darknet's shortcut_cpu lines up one source of another shape (ResNet cfgs).
                let source = shortcut.from[0], from = planned[source].outputShape
                guard from == input || ShortcutGeometry(from: from, to: input) != nil else {
                    throw fail(.shortcutShapeMismatch(previous: input, from: from, fromLayer: source))
                }
            } else {
                // AlexeyAB's several sources: each the previous layer's shape.
                for source in shortcut.from where planned[source].outputShape != input {
                    throw fail(.shortcutShapeMismatch(previous: input, from: planned[source].outputShape, fromLayer: source))
                }
            }
            return try make(input, sources: [previousSource] + shortcut.from)

        case .scaleChannels(let scale):
            let from = planned[scale.from].outputShape
            let fits = scale.scaleWH
                ? input.channels == 1 && input.height == from.height && input.width == from.width
                : input.height == 1 && input.width == 1 && input.channels == from.channels
            guard fits else { throw fail(.scaleShapeMismatch(previous: input, from: from, fromLayer: scale.from)) }
            return try make(from, sources: [previousSource, scale.from])

        case .sam(let sam):
            let from = planned[sam.from].outputShape
            guard from == input else { throw fail(.scaleShapeMismatch(previous: input, from: from, fromLayer: sam.from)) }
            return try make(input, sources: [previousSource, sam.from])

        case .yolo(let yolo):
            let expected = yolo.mask.count * (yolo.classes + 5)
            guard input.channels == expected else { throw fail(.yoloChannelMismatch(expected: expected, actual: input.channels)) }
            return try make(input)

        case .region, .reorg, .avgpool, .softmax, .connected, .dropout, .batchnorm, .cost, .crop:
            let planned = try planDarknetLayer(layer.kind, input: input, fail: fail)
            return try make(planned.output, parameters: planned.parameters)
        }
    }
}

extension ConvolutionAlgorithm {
    /// One of the Winograd paths (one driver, one per-thread transform scratch).
    var isWinograd: Bool {
        switch self {
        case .winograd, .winogradFewTiles, .winogradF23, .winogradBands: true
        case .direct, .im2col, .im2colBands, .slidingWindow, .slidingWindowStride2: false
        }
    }

    /// Winograd F(4x4, 3x3) with channel-major weights, for the tile-major product kernel.
    package var hasTileMajorF43Weights: Bool { self == .winogradFewTiles || self == .winogradBands }

    /// Largest F(4x4, 3x3) weights (bytes) the few-tile path takes on: its products stream them
    /// once per pass, so beyond this a layer is bound by memory bandwidth and F(2x2, 3x3), with
    /// 16/36 of the weights, is faster.
    static let fewTileWeightLimit = 32 << 20
    /// Most F(4x4, 3x3) tiles the whole-layer tile-major paths take on (a 52x52 output): beyond,
    /// the transformed input and products outgrow L2, and run a band at a time.
    static let tileMajorTileLimit = 169
    /// Largest F(4x4, 3x3) weights (bytes) `.winogradBands` takes on: every band reads all of
    /// them, so they have to stay in L2 beside the band (104x104 64 -> 128: 1.2 MB).
    static let bandWeightLimit = 2 << 20

    /// The planner's choice, by measurement on YOLOv3-tiny and YOLOv3 at 416 (darknet-microbench,
    /// one thread):
    /// - 1x1 stride-1 unpadded: `.direct` (the input is already the GEMM's B matrix);
    /// - few input channels: `.slidingWindow` (2-4x im2col at 3 and 16 channels);
    /// - 3x3 stride-1 "same" with at least 32 channels, up to `tileMajorTileLimit` tiles:
    ///   `.winogradFewTiles` while its weights stay under `fewTileWeightLimit` (13x13 256 -> 512:
    ///   1.7x the 36 GEMMs; 26x26 256 -> 512: 1.5x; 52x52 128 -> 256: 1.1x), else `.winogradF23`
    ///   (13x13 512 -> 1024: 1.9x the 36 GEMMs and as fast as F(4x4, 3x3) tile-major with 16/36 of
    ///   its 75 MB of weights); more tiles: `.winogradBands` while its weights stay under
    ///   `bandWeightLimit` (208x208 32 -> 64: 1.3x the 36 GEMMs; 104x104 64 -> 128: 1.2x), else
    ///   `.winograd` (1.5-2x im2col);
    /// - stride 2 with small weights: `.slidingWindowStride2` (YOLOv3's 3x3/2 32 -> 64 and
    ///   64 -> 128 at 416: see `SlidingWindowStride2`);
    /// - everything else: `.im2colBands` for large outputs with small weights, else `.im2col`.
    static func choose(for conv: ConvolutionalSpec, inputChannels: Int, outputHeight: Int, outputWidth: Int,
                       strategy: ConvolutionStrategy, fewTileWeightLimit: Int = fewTileWeightLimit,
                       bandWeightLimit: Int = bandWeightLimit)
        -> ConvolutionAlgorithm {
        let unitStride = conv.strideX == 1 && conv.strideY == 1
        if conv.size == 1 && unitStride && conv.padding == 0 { return .direct }
        guard strategy == .fastest else { return .im2col }
        if SlidingWindowConvolution.suits(conv, inputChannels: inputChannels) { return .slidingWindow }
        if SlidingWindowStride2.suits(conv, inputChannels: inputChannels) { return .slidingWindowStride2 }
        // Winograd computes undilated unit-stride windows only.
        guard conv.size == 3, unitStride, conv.dilation == 1, conv.padding == 1, conv.groups == 1, inputChannels >= 32 else {
            return Im2colBands.suits(conv, inputChannels: inputChannels, outputHeight: outputHeight,
                                     outputWidth: outputWidth) ? .im2colBands : .im2col
        }
        let (rows, columns) = WinogradF43.tileCounts(height: outputHeight, width: outputWidth)
        let (count, overflow) = WinogradF43.elements.multipliedReportingOverflow(
            by: WinogradF43.paddedFilters(conv.filters) * inputChannels)
        let (bytes, bytesOverflow) = count.multipliedReportingOverflow(by: MemoryLayout<Float>.size)
        let weightBytes = overflow || bytesOverflow ? Int.max : bytes
        if rows * columns > tileMajorTileLimit { return weightBytes <= bandWeightLimit ? .winogradBands : .winograd }
        return weightBytes <= fewTileWeightLimit ? .winogradFewTiles : .winogradF23
    }
}
