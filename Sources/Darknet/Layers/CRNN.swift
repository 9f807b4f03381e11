import Foundation

/// `[crnn]`: Darknet's convolutional recurrent layer, `[rnn]` with three `[convolutional]`
/// sub-layers on an image-shaped state of `hidden` channels:
/// `state = input(x) + self(state)` (plus the old state with `shortcut`), output
/// `output(state)`, all with the layer's activation (and batch norm). The state is carried from
/// one forward pass to the next (one time step each).
///
/// The two Darknets read different keys. The original takes `output_filters` and
/// `hidden_filters` and always convolves 3x3, stride 1, padding 1 (and swaps the input's width
/// and height, see `transposesInput`). AlexeyAB's fork takes `output`, `hidden`, `size`, `pad`,
/// `padding`, `dilation`, `groups` and `stride`; a section with any of those is read its way
/// (and makes the network AlexeyAB's, `needsAlexeyAB`). Both need sub-layers that keep the
/// input's width and height: stride 1, `2 * padding == size - 1`.
public struct CRNNSpec: Sendable, Equatable {
    /// Output channels (`output_filters`; AlexeyAB: `output`; default 1).
    public var outputFilters: Int
    /// State channels (`hidden_filters`; AlexeyAB: `hidden`; default 1).
    public var hiddenFilters: Int
    /// Kernel side of every sub-layer (AlexeyAB's `size`, default 3; the original: 3).
    public var size: Int
    /// Zero padding of every sub-layer (AlexeyAB: `size / 2` with `pad=1`, else `padding`; the original: 1).
    public var padding: Int
    /// Spacing between kernel taps (AlexeyAB's `dilation`, default 1; 1 for 1x1 kernels).
    public var dilation: Int
    /// Channel groups of every sub-layer (AlexeyAB's `groups`, default 1).
    public var groups: Int
    /// Of every sub-layer (`activation`, default `logistic`).
    public var activation: Activation
    /// Batch norm in every sub-layer (`batch_normalize`), folded at load.
    public var batchNormalize: Bool
    /// The old state is kept in the sum (`shortcut`, default 0).
    public var shortcut: Bool
    /// The section uses AlexeyAB's keys.
    public var alexeyABKeys: Bool

    /// The original Darknet's `parse_crnn` hands `make_crnn_layer` the input's width as its height
    /// and its height as its width: the sub-layers see the input buffer as an image of
    /// `height` columns and `width` rows, and the output has those dimensions. Same arithmetic
    /// as AlexeyAB's for square inputs.
    public var transposesInput: Bool { !alexeyABKeys }
}

extension CRNNSpec: Layer {
    static let sectionNames = ["crnn"]

    /// Keys only AlexeyAB's `parse_crnn` reads.
    static let alexeyABOnlyKeys = ["output", "hidden", "size", "stride", "pad", "padding", "dilation", "groups", "xnor"]
    /// Keys only the original's `parse_crnn` reads.
    static let originalOnlyKeys = ["output_filters", "hidden_filters"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> CRNNSpec {
        let alexeyAB = alexeyABOnlyKeys.first { r.has($0) }
        if let alexeyAB, let original = originalOnlyKeys.first(where: { r.has($0) }) {
            throw r.error(original, .unsupported(
                "'\(original)' (the original Darknet's [crnn] key) with '\(alexeyAB)' (AlexeyAB's): each Darknet ignores the other's"))
        }
        let activation = try r.activation("activation", default: .logistic)
        let batchNormalize = try r.bool("batch_normalize", default: false)
        let shortcut = try r.bool("shortcut", default: false)
        guard alexeyAB != nil else {
            return CRNNSpec(outputFilters: try r.int("output_filters", default: 1, minimum: 1),
                            hiddenFilters: try r.int("hidden_filters", default: 1, minimum: 1), size: 3, padding: 1,
                            dilation: 1, groups: 1, activation: activation, batchNormalize: batchNormalize,
                            shortcut: shortcut, alexeyABKeys: false)
        }
        let outputFilters = try r.int("output", default: 1, minimum: 1)
        let hiddenFilters = try r.int("hidden", default: 1, minimum: 1)
        let size = try r.int("size", default: 3, minimum: 1)
        let stride = try r.int("stride", default: 1, minimum: 1)
        let pad = try r.bool("pad", default: false)
        var padding = try r.int("padding", default: 0, minimum: 0)
        if pad { padding = size / 2 }
        var dilation = try r.int("dilation", default: 1, minimum: 1)
        if size == 1 { dilation = 1 }
        let groups = try r.int("groups", default: 1, minimum: 1)
        try r.requireNeutral("xnor", 0, feature: "XNOR convolution")
        // AlexeyAB's make_crnn_layer asserts that the sub-layers keep the input's size.
        guard stride == 1 else {
            throw r.error("stride", .unsupported("stride=\(stride) in [crnn] (its state keeps the input's width and height)"))
        }
        guard 2 * padding == size - 1 else {
            throw r.error(r.has("padding") && !pad ? "padding" : (r.has("pad") ? "pad" : "size"), .unsupported(
                "[crnn] with size=\(size) and padding \(padding): its state keeps the input's size only with 2*padding = size-1"))
        }
        for (key, filters) in [("hidden", hiddenFilters), ("output", outputFilters)] where filters % groups != 0 {
            throw r.error("groups", .invalidValue(value: String(groups), expected: "a divisor of \(key) (\(filters))"))
        }
        return CRNNSpec(outputFilters: outputFilters, hiddenFilters: hiddenFilters, size: size, padding: padding,
                        dilation: dilation, groups: groups, activation: activation, batchNormalize: batchNormalize,
                        shortcut: shortcut, alexeyABKeys: true)
    }

    var needsAlexeyAB: Bool { alexeyABKeys || activation.isAlexeyABOnly }

    /// The image the sub-layers see (see `transposesInput`).
    func geometry(_ input: TensorShape) -> TensorShape {
        transposesInput ? TensorShape(channels: input.channels, height: input.width, width: input.height) : input
    }

    /// `input_layer` (input -> hidden), `self_layer` (hidden -> hidden), `output_layer`
    /// (hidden -> output), with the shapes they read.
    func sublayers(_ input: TensorShape) -> [(name: String, conv: ConvolutionalSpec, input: TensorShape)] {
        let image = geometry(input)
        let hidden = TensorShape(channels: hiddenFilters, height: image.height, width: image.width)
        func conv(_ filters: Int) -> ConvolutionalSpec {
            ConvolutionalSpec(filters: filters, size: size, dilation: dilation, padding: padding, groups: groups,
                              batchNormalize: batchNormalize, activation: activation)
        }
        return [("input_layer", conv(hiddenFilters), image), ("self_layer", conv(hiddenFilters), hidden),
                ("output_layer", conv(outputFilters), hidden)]
    }

    /// The sub-layers are computed by the reference path (im2col + GEMM; 1x1: straight GEMM):
    /// they share the layer's workspace, after which the responses sit.
    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        var options = context.options
        options.convolutionStrategy = .im2colOnly
        var total = LayerPlanning(output: TensorShape(channels: 0, height: 0, width: 0))
        var resident = 0
        for (_, conv, input) in sublayers(context.input) {
            let sub = try conv.plan(LayerPlanningContext(index: context.index, section: context.section, input: input,
                                                         planned: context.planned, options: options))
            total.output = sub.output
            total.convolutions += sub.convolutions
            total.workspace = max(total.workspace, sub.workspace)
            total.threadScratch = max(total.threadScratch, sub.threadScratch)
            var overflow = false
            (total.flops, overflow) = total.flops.addingReportingOverflow(sub.flops)
            var more = false
            (total.parameters, more) = total.parameters.addingReportingOverflow(sub.parameters)
            var resides = false
            (resident, resides) = resident.addingReportingOverflow(sub.resident ?? sub.parameters)
            guard !overflow, !more, !resides else { throw context.fail(.sizeOverflow) }
        }
        // The input and self responses sit after the sub-layers' shared workspace.
        let hidden = try context.product(hiddenFilters, total.output.planeSize)
        let (workspace, overflow) = total.workspace.addingReportingOverflow(try context.product(2, hidden))
        guard !overflow else { throw context.fail(.sizeOverflow) }
        total.workspace = workspace
        total.state = hidden
        total.resident = resident
        return total
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "crnn  %5d %2d x%2d /%2d  ", outputFilters, size, size, 1) + layer.shapes
            + String(format: "  %5.3f BFLOPs", Double(layer.flops) / 1e9)
    }

    /// `load_weights`: the input, self and output sub-layers, each a `[convolutional]` block
    /// (biases, [scales, rolling mean, rolling variance], weights).
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        sublayers(layer.inputShape).flatMap { name, conv, input in
            let weights = conv.filters &* (input.channels / conv.groups &* conv.size &* conv.size)
            let norm = batchNormalize ? [("scales", conv.filters), ("rolling_mean", conv.filters),
                                         ("rolling_variance", conv.filters)] : []
            return ([("biases", conv.filters)] + norm + [("weights", weights)]).map { (name + "." + $0.0, $0.1) }
        }
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        var convolutions: [any ConvolutionKernel] = []
        for ((_, conv, input), planned) in zip(sublayers(layer.inputShape), layer.convolutions) {
            convolutions.append(try planned.load(from: &reader, spec: conv, input: input, dialect: context.dialect))
        }
        let hidden = hiddenFilters * layer.outputShape.planeSize
        return CRNNStep(input: convolutions[0], recurrent: convolutions[1], output: convolutions[2], hidden: hidden,
                        shortcut: shortcut, responses: layer.workspaceCount - 2 * hidden)
    }
}

/// One time step of a `[crnn]` layer on the session's state: the three convolutions' kernels,
/// the sum over the state in between.
struct CRNNStep: LayerStep {
    let input: any ConvolutionKernel
    let recurrent: any ConvolutionKernel
    let output: any ConvolutionKernel
    /// Floats of the state (`hidden` channels at the output's size).
    let hidden: Int
    let shortcut: Bool
    /// Where in the workspace the input and self responses go (after the convolutions' part).
    let responses: Int

    var parameterArrays: [[Float]] {
        [input, recurrent, output].flatMap(\.parameterArrays)
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let state = pass.state(of: layer)
        let fromInput = pass.workspace + responses, fromState = fromInput + hidden
        input.run(pass.convolutionBuffers(input: pass.input(of: layer), output: fromInput))
        recurrent.run(pass.convolutionBuffers(input: state, output: fromState))
        // Darknet: the state is zeroed (or kept, with shortcut), then both responses are added.
        if shortcut {
            for i in 0..<hidden { state[i] = state[i] + fromInput[i] + fromState[i] }
        } else {
            for i in 0..<hidden { state[i] = fromInput[i] + fromState[i] }
        }
        output.run(pass.convolutionBuffers(input: state, output: pass.output(of: layer)))
    }
}
