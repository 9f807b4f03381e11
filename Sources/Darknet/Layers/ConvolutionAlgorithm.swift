/// How a convolution is computed.
public enum ConvolutionAlgorithm: Sendable, Equatable {
    /// 1x1, stride 1, no padding: the input already is the GEMM's B matrix.
    case direct
    /// 1x1, stride 1, no padding, one group, by the tile-major product kernel instead of the
    /// BLAS (`PointwiseConvolution`): where the BLAS has no AVX-512 kernels on a CPU that has them.
    case pointwise
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
    /// int8 im2col + GEMM (`Int8Im2colConvolution`): the input quantized to 8 bits with its
    /// calibrated scale, weights quantized per filter at load, float output. Chosen only with
    /// `PlanOptions.precision` `.int8`, for the convolutions it calibrates and keeps in int8.
    case int8Im2col
    /// int8 at stride 1 with a window, without im2col (`Int8DirectConvolution`): the input's
    /// codes laid out once in padded channel quads, each GEMM panel copied from them. The same
    /// results as `.int8Im2col`; chosen instead of it where it applies (whole quads of input
    /// channels), by measurement: 3x3 layers of YOLOv3-tiny and YOLOv3 (see the method).
    case int8Direct
    /// 16-bit integers at stride 1 with a window (`Int16DirectConvolution`): the direct int8
    /// path with int16 input codes, quantized symmetrically from the float input with its
    /// calibrated range, and int16 weights. For the early convolutions `Int8FloatLayers` keeps
    /// from 8-bit activations (`sixteenBitEarlyLayers`): near float's accuracy at twice float's
    /// multiply rate.
    case int16Direct
}

/// Which fast paths the planner may choose.
public enum ConvolutionStrategy: Sendable, Equatable {
    /// The fastest path each layer supports.
    case fastest
    /// im2col + GEMM everywhere (1x1 stride-1 layers still skip im2col): the reference path.
    case im2colOnly
}

extension ConvolutionAlgorithm {
    /// One of the Winograd paths (one driver, one per-thread transform scratch).
    var isWinograd: Bool {
        switch self {
        case .winograd, .winogradFewTiles, .winogradF23, .winogradBands: true
        case .direct, .pointwise, .im2col, .im2colBands, .slidingWindow, .slidingWindowStride2, .int8Im2col, .int8Direct,
             .int16Direct: false
        }
    }

    /// One of the int8 paths (`PlanOptions.precision` `.int8`), 16-bit activations included.
    package var isInt8: Bool { self == .int8Im2col || self == .int8Direct || self == .int16Direct }

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
    /// - 1x1 stride-1 unpadded: `.direct` (the input is already the GEMM's B matrix), or with
    ///   one group `.pointwise` where `pointwiseBeatsTheBLAS` (`PointwiseConvolution.beatsTheBLAS`);
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
                       bandWeightLimit: Int = bandWeightLimit,
                       pointwiseBeatsTheBLAS: Bool = PointwiseConvolution.beatsTheBLAS)
        -> ConvolutionAlgorithm {
        let unitStride = conv.strideX == 1 && conv.strideY == 1
        if conv.size == 1 && unitStride && conv.padding == 0 {
            return strategy == .fastest && conv.groups == 1 && pointwiseBeatsTheBLAS ? .pointwise : .direct
        }
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
