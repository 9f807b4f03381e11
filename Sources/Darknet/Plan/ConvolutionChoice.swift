/// How the planner picks a convolution's algorithm: the first rule of `rules`, in order, whose
/// algorithm computes the candidate (`ConvolutionMethod.computes`) and whose preference holds.
/// The preferences are measurements (darknet-microbench on YOLOv3-tiny and YOLOv3 at 416, one
/// thread; each constant's doc says which); `computes` is what a kernel can do at all.
///
/// Which convolutions get integer arithmetic is `IntegerLayers`; which max pools the sliding
/// window computes in the same pass is `NetworkPlan.fusibleMaxpools`.
package enum ConvolutionChoice {
    /// One entry of the planner's list: an algorithm and when the planner prefers it.
    package struct Rule: Sendable {
        package let method: any ConvolutionMethod.Type
        /// Whether the planner takes `method` for a candidate it computes.
        let prefers: @Sendable (ConvolutionCandidate) -> Bool

        init(_ method: any ConvolutionMethod.Type, when prefers: @escaping @Sendable (ConvolutionCandidate) -> Bool) {
            self.method = method
            self.prefers = prefers
        }

        package var algorithm: ConvolutionAlgorithm { method.algorithm }
    }

    /// Every algorithm, in the order the planner tries them.
    package static let rules: [Rule] = [
        // bfloat16 and float16 where the arithmetic rules give them (ArithmeticChoice).
        // 3x3 "same" over outputs float32's Winograd leaves to bfloat16 (ArithmeticChoice), from
        // 20x20 to 104x104 in VDPBF16PS's arithmetic from 128 channels: F(3x3, 3x3), 25 products per
        // 9 outputs, in bands (YOLOv3's 52x52 128 -> 256: 4.3-4.4 ms against float32's bands
        // 4.5-4.9; 26x26 256 -> 512: 3.4 against F(2x2, 3x3)'s 4.8; one Zen 4 core).
        Rule(BFloat16WinogradF33.self) { candidate in
            guard let kernels = candidate.reducedKernels else { return false }
            return candidate.fastest && ReducedConvolutionShapes.takenByF33(candidate.shapes, on: kernels, tuning: candidate.tuning)
        },
        // The rest up to 38x38 (13x13 in BFDOT's arithmetic): F(2x2, 3x3), 16 products per 4 outputs
        // where the GEMM does 36 (YOLOv3's 13x13 512 -> 1024: 6.4 ms against 9.0; 26x26 256 -> 512:
        // 4.8 against 7.6). Not over larger outputs, which int8's remainder can give bfloat16: its
        // transforms then cost more than the products save (YOLOv3's 208x208 32 -> 64: 24.5 ms
        // against the GEMM's 8.9).
        Rule(BFloat16WinogradF23.self) { candidate in
            guard let kernels = candidate.reducedKernels else { return false }
            return candidate.fastest && candidate.input.channels >= 32
                && candidate.shapes.output.planeSize <= ReducedConvolutionShapes.largestPlaneForF23(kernels)
        },
        Rule(BFloat16Convolution.self) { _ in true },
        Rule(Float16Convolution.self) { _ in true },
        // Integer arithmetic where the precision rules give a layer integer codes.
        Rule(Int16DirectConvolution.self) { $0.fastest },
        // Every output width: the direct path computes only the output's own columns (13x13 512 -> 1024
        // 0.86x, 26x26 384 -> 256 0.77x, 208x208 16 -> 32 0.67x the im2col path's time).
        Rule(Int8DirectConvolution.self) { $0.fastest },
        Rule(Int8Im2colConvolution.self) { _ in true },
        // 1x1 stride 1: the input already is the GEMM's B matrix.
        Rule(PointwiseConvolution.self) { $0.fastest && PointwiseConvolution.beatsTheBLAS($0) },
        Rule(DirectGEMMConvolution.self) { _ in true },
        // Few input channels: 2-4x im2col at 3 and 16 channels; from 32 on, Winograd or the GEMM win.
        Rule(SlidingWindowConvolution.self) { $0.fastest && $0.input.channels <= 16 },
        Rule(SlidingWindowStride2.self) { $0.fastest && $0.shapes.weightBytes <= Double(SlidingWindowStride2.weightLimit) },
        // 3x3 "same" from 32 channels: small outputs tile-major (13x13 256 -> 512: 1.7x the 36
        // GEMMs; 26x26 256 -> 512: 1.5x; 52x52 128 -> 256: 1.1x) while the weights stream, else
        // F(2x2, 3x3) (13x13 512 -> 1024: 1.9x the 36 GEMMs); large ones in bands while the
        // weights stay in L2 (208x208 32 -> 64: 1.3x; 104x104 64 -> 128: 1.2x), else the GEMMs
        // (1.5-2x im2col).
        // Outputs of 52x52 and more in bands even where the weights outgrow L2, when the core's
        // L2 holds a band of one tile row: YOLOv3's 52x52 128 -> 256 5.0 ms against the few-tile
        // path's 6.0 (Zen 4, 1 MiB L2; not measured on a 512 KiB one, which keeps the paths below).
        Rule(WinogradBands.self) {
            $0.fastest && $0.input.channels >= 32 && $0.winogradTiles >= WinogradFewTiles.tileLimit
                && $0.winogradWeightBytes <= $0.tuning.largeBandWeightLimit && WinogradBands.oneRowFitsL2($0)
        },
        Rule(WinogradFewTiles.self) {
            $0.fastest && $0.input.channels >= 32 && $0.winogradTiles <= WinogradFewTiles.tileLimit
                && $0.winogradWeightBytes <= $0.tuning.fewTileWeightLimit
        },
        Rule(WinogradF23Convolution.self) {
            $0.fastest && $0.input.channels >= 32 && $0.winogradTiles <= WinogradFewTiles.tileLimit
        },
        Rule(WinogradBands.self) {
            $0.fastest && $0.input.channels >= 32 && $0.winogradWeightBytes <= $0.tuning.bandWeightLimit
        },
        Rule(WinogradGEMMs.self) { $0.fastest && $0.input.channels >= 32 },
        // Large outputs with small weights that no direct kernel takes (strides above 2, dilation).
        Rule(Im2colBands.self) { $0.fastest && Im2colBands.pays($0.shapes) },
        // The general path, which computes everything.
        Rule(Im2colConvolution.self) { _ in true },
    ]

    /// The plan of `candidate`'s convolution: the first rule computing in its arithmetic that
    /// computes and prefers it; where no algorithm computes it in that arithmetic, the first
    /// float32 one.
    package static func plan(_ candidate: ConvolutionCandidate) -> any ConvolutionMethod {
        for arithmetic in [candidate.arithmetic, .float32] {
            for rule in rules where rule.algorithm.arithmetic == arithmetic && rule.method.computes(candidate)
                && rule.prefers(candidate) {
                return rule.method.init(candidate)
            }
        }
        return Im2colConvolution(candidate)
    }

    /// Every algorithm that computes `candidate`, in the list's order (the micro-benchmarks time
    /// each of them).
    package static func alternatives(_ candidate: ConvolutionCandidate) -> [any ConvolutionMethod.Type] {
        rules.map(\.method).filter { $0.computes(candidate) }
    }
}
