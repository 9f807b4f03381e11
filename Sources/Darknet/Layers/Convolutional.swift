import Foundation

/// `[convolutional]` / `[conv]`.
public struct ConvolutionalSpec: Sendable, Equatable {
    /// Output channels (`filters`).
    public var filters: Int
    /// Square kernel side (`size`).
    public var size: Int
    /// Horizontal step between windows (`stride_x`, default `stride`).
    public var strideX: Int
    /// Vertical step between windows (`stride_y`, default `stride`).
    public var strideY: Int
    /// Spacing between kernel taps (`dilation`, default 1; forced to 1 for 1x1 kernels as
    /// AlexeyAB does). The padding is multiplied by it.
    public var dilation: Int
    /// Zero padding on each side: `size / 2` when `pad=1`, else `padding` (before dilation).
    public var padding: Int
    /// Channel groups (`groups`); input and output channels split evenly among them.
    public var groups: Int
    /// Whether batch-norm parameters follow the biases in the weights file (`batch_normalize`).
    public var batchNormalize: Bool
    /// Stored transposed in the weights file (`flipped`).
    public var flipped: Bool
    /// Applied after bias (`activation`, default `logistic` as in Darknet).
    public var activation: Activation

    /// A convolution with every optional feature at its neutral value except those given.
    public init(filters: Int, size: Int, stride: Int = 1, strideX: Int? = nil, strideY: Int? = nil, dilation: Int = 1,
                padding: Int, groups: Int = 1, batchNormalize: Bool, flipped: Bool = false, activation: Activation) {
        self.filters = filters
        self.size = size
        self.strideX = strideX ?? stride
        self.strideY = strideY ?? stride
        self.dilation = dilation
        self.padding = padding
        self.groups = groups
        self.batchNormalize = batchNormalize
        self.flipped = flipped
        self.activation = activation
    }
}

extension ConvolutionalSpec: Layer {
    static let sectionNames = ["convolutional", "conv"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> ConvolutionalSpec {
        r.ignore(TrainingKeys.convolutional)
        let filters = try r.int("filters", default: 1, minimum: 1)
        let size = try r.int("size", default: 1, minimum: 1)
        let (strideX, strideY) = try r.strides()
        let pad = try r.bool("pad", default: false)
        var padding = try r.int("padding", default: 0, minimum: 0)
        if pad { padding = size / 2 }
        let groups = try r.int("groups", default: 1, minimum: 1)
        guard filters % groups == 0 else {
            throw r.error("groups", .invalidValue(value: String(groups), expected: "a divisor of filters (\(filters))"))
        }
        var dilation = try r.int("dilation", default: 1, minimum: 1)
        if size == 1 { dilation = 1 }  // AlexeyAB: a 1x1 kernel has nothing to spread
        let crossBatchNorm = try decodeExtensions(&r)
        try checkDilation(r, size: size, padding: padding, dilation: dilation)
        try r.requireNeutral("binary", 0, feature: "binary (XNOR) weights")
        try r.requireNeutral("xnor", 0, feature: "XNOR convolution")
        try r.requireNeutral("antialiasing", 0, feature: "antialiasing")
        try r.requireNeutral("dot", 0, feature: "dot-product regularisation")
        return ConvolutionalSpec(
            filters: filters, size: size, strideX: strideX, strideY: strideY, dilation: dilation, padding: padding, groups: groups,
            batchNormalize: try r.bool("batch_normalize", default: false) || crossBatchNorm,
            flipped: try r.bool("flipped", default: false),
            activation: try r.activation("activation", default: .logistic))
    }

    /// AlexeyAB's convolution keys: accepted where they do not change inference, refused where
    /// they do and are not implemented. Returns `cbn` (cross-iteration batch norm), which
    /// infers exactly like `batch_normalize=1` (AlexeyAB sets batch_normalize=2 for it).
    private static func decodeExtensions(_ r: inout SectionReader) throws(CfgError) -> Bool {
        for (key, feature) in [("sway", "deformable (sway) convolution"), ("rotate", "deformable (rotate) convolution"),
                               ("stretch", "deformable (stretch) convolution"),
                               ("stretch_sway", "deformable (stretch_sway) convolution"),
                               ("coordconv", "coordconv"), ("bin_output", "binary output")] {
            try r.requireNeutral(key, 0, feature: feature)
        }
        // Only read with sway/rotate/stretch (refused above), on the GPU, or while training.
        r.ignore(["angle", "reverse", "grad_centr", "stream", "wait_stream", "assisted_excitation"])
        return try r.bool("cbn", default: false)
    }

    /// AlexeyAB pads a dilated convolution by `padding * dilation` but sizes its output as if
    /// undilated; the two agree only for "same" padding (`2 * padding == size - 1`, e.g.
    /// `pad=1` with an odd size). Anything else would read its column buffer with the wrong
    /// shape there, so it is refused.
    private static func checkDilation(_ r: SectionReader, size: Int, padding: Int, dilation: Int) throws(CfgError) {
        guard dilation > 1, 2 * padding != size - 1 else { return }
        throw r.error("dilation", .unsupported("dilation=\(dilation) with padding \(padding) for size \(size) (only 'same' padding, 2*padding = size-1)"))
    }

    var needsAlexeyAB: Bool { strideX != strideY || dilation != 1 || activation.isAlexeyABOnly }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input
        guard input.channels % groups == 0 else {
            throw context.fail(.channelsNotDivisibleByGroups(channels: input.channels, groups: groups))
        }
        guard size <= input.width + 2 * padding, size <= input.height + 2 * padding else {
            throw context.fail(.windowLargerThanInput(window: size, input: input, padding: padding))
        }
        let output = TensorShape(channels: filters,
                                 height: (input.height + 2 * padding - size) / strideY + 1,
                                 width: (input.width + 2 * padding - size) / strideX + 1)
        guard NetworkPlan.fitsInt32(output) else { throw context.fail(.sizeOverflow) }
        let kernelArea = try context.product(input.channels / groups, size, size)
        // BLAS takes the kernel area (GEMM's k and lda) as a 32-bit int.
        guard kernelArea < Int(Int32.max) else { throw context.fail(.sizeOverflow) }
        let flops = try context.product(2, filters, kernelArea, output.planeSize)
        let options = context.options
        let shapes = ConvolutionShapes(conv: self, input: input, output: output)
        // What float32 would take, which the bfloat16 and float16 rules weigh against (planned only for them).
        let floatAlgorithm = options.precision.reducedArithmetic == nil ? nil : type(of: ConvolutionChoice.plan(ConvolutionCandidate(
            shapes: shapes, cpu: options.cpu, kernels: options.vectorKernels, strategy: options.convolutionStrategy,
            tuning: options.tuning))).algorithm
        let arithmetic = ArithmeticChoice.rule(for: ArithmeticChoice.Candidate(
            shapes: shapes, precision: options.precision, cpu: options.cpu, integer: context.int8Input,
            pinnedReduced: options.reducedKernels, readsNetworkInput: context.index == 0, floatAlgorithm: floatAlgorithm,
            tuning: options.tuning))
        let candidate = ConvolutionCandidate(shapes: shapes, cpu: options.cpu, kernels: options.vectorKernels,
                                             strategy: options.convolutionStrategy, tuning: options.tuning,
                                             integer: context.int8Input, arithmetic: arithmetic.arithmetic,
                                             reducedKernels: options.reducedKernels)
        let method = ConvolutionChoice.plan(candidate)
        let computed = type(of: method).algorithm.arithmetic
        let reason = computed == arithmetic.arithmetic ? arithmetic.reason
            : "\(arithmetic.reason), but no \(arithmetic.arithmetic) algorithm computes it: \(computed)"
        let parameters = try context.product(filters, kernelArea + 1)
        let (resident, overflow) = method.weightCount.addingReportingOverflow(filters)
        guard method.workspaceCount != .max, method.scratchCount != .max, !overflow else { throw context.fail(.sizeOverflow) }
        return LayerPlanning(output: output, flops: flops, workspace: method.workspaceCount,
                             threadScratch: method.scratchCount, parameters: parameters, resident: resident,
                             convolutions: [PlannedConvolution(method, reason: reason)])
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "conv  %5d %2d x%2d /%2d  ", filters, size, size, strideX) + layer.shapes
            + String(format: "  %5.3f BFLOPs", Double(layer.flops) / 1e9)
    }

    /// Darknet's order: biases, [scales, rolling mean, rolling variance], weights.
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        // The planner checked this product (`parameterCount`) for overflow.
        let weights = filters &* (layer.inputShape.channels / groups &* size &* size)
        let norm = batchNormalize ? [("scales", filters), ("rolling_mean", filters), ("rolling_variance", filters)] : []
        return [("biases", filters)] + norm + [("weights", weights)]
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        ConvolutionStep(kernel: try layer.convolutions[0].load(from: &reader, spec: self, input: layer.inputShape,
                                                               dialect: context.dialect))
    }
}

/// A convolution's forward step: its loaded kernel, the weights in its algorithm's layout.
struct ConvolutionStep: LayerStep {
    let kernel: any ConvolutionKernel

    var parameterArrays: [[Float]] { kernel.parameterArrays }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        // The next layer's max pool, when this pass computes it here (see `NetworkPlan.fusibleMaxpools`).
        let pooled = pass.fusesMaxpool(layer.index + 1) ? pass.buffer(of: layer.index + 1) : nil
        var buffers = pass.convolutionBuffers(input: pass.input(of: layer), output: pass.output(of: layer), pooled: pooled)
        // The next layer's shortcut, when this pass adds it here (its output is this buffer).
        buffers.residual = pass.fusedShortcutResidual(layer.index + 1)
        if layer.int8 != nil {
            buffers.inputIsCodes = pass.codeQuantization(ofOutput: layer.index - 1) != nil
            buffers.outputCodes = pass.codeQuantization(ofOutput: layer.index)
        }
        kernel.run(buffers)
    }
}
