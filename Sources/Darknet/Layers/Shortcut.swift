/// `[shortcut]`: adds earlier layers' outputs to the previous one.
public struct ShortcutSpec: Sendable, Equatable {
    /// Absolute indices of the added layers (`from`, one or more, relative resolved).
    public var from: [Int]
    /// Applied to the sum (`activation`, default linear).
    public var activation: Activation
    /// Weight of the previous layer's output (`alpha`, default 1).
    public var alpha: Float
    /// Weight of the `from` layers' outputs (`beta`, default 1).
    public var beta: Float
}

extension ShortcutSpec: WeightlessLayer {
    static let sectionNames = ["shortcut"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> ShortcutSpec {
        r.ignore(TrainingKeys.shortcut)
        let from = try r.sources("from", at: index)
        try checkWeightsType(&r)
        return ShortcutSpec(
            from: from,
            activation: try r.activation("activation", default: .linear),
            alpha: try r.float("alpha", default: 1),
            beta: try r.float("beta", default: 1))
    }

    /// AlexeyAB's `weights_type`: only `none` (plain sum) is implemented.
    private static func checkWeightsType(_ r: inout SectionReader) throws(CfgError) {
        r.ignore(["weights_type"])
        guard let entry = r.entry("weights_type"), entry.value != "none" else { return }
        switch entry.value {
        case "per_feature", "per_layer", "per_channel":
            throw r.error("weights_type", .unsupported("weighted shortcut (weights_type=\(entry.value))"))
        default:
            throw r.error("weights_type", .invalidValue(value: entry.value, expected: "one of none, per_feature, per_layer, per_channel"))
        }
    }

    var needsAlexeyAB: Bool { from.count > 1 || activation.isAlexeyABOnly }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input
        if from.count == 1 {
            // Darknet's shortcut_cpu lines up one source of another shape (ResNet cfgs).
            let source = from[0], fromShape = context.outputShape(of: source)
            guard fromShape == input || ShortcutGeometry(from: fromShape, to: input) != nil else {
                throw context.fail(.shortcutShapeMismatch(previous: input, from: fromShape, fromLayer: source))
            }
        } else {
            // AlexeyAB's several sources: each the previous layer's shape.
            for source in from where context.outputShape(of: source) != input {
                throw context.fail(.shortcutShapeMismatch(previous: input, from: context.outputShape(of: source), fromLayer: source))
            }
        }
        return LayerPlanning(output: input, sources: [context.index - 1] + from)
    }

    func summary(_ layer: LayerPlan) -> String {
        "res  " + from.map(String.init).joined(separator: ",") + String(repeating: " ", count: 18) + layer.shapes
    }

    /// The previous output plus every `from` output. One source keeps the two-operand kernel, or
    /// Darknet's resampling when its shape differs (ResNet cfgs).
    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        // The convolution before it wrote the sum into its buffer, which is this layer's output.
        if pass.layout.fusedShortcuts.contains(layer.index) { return }
        let previous = pass.input(of: layer), output = pass.output(of: layer), shape = layer.inputShape
        let count = shape.count
        guard from.count == 1 else {
            pass.kernels.scaledCopy(previous, count: count, alpha: alpha, into: output)
            for source in from { pass.kernels.accumulate(pass.buffer(of: source), count: count, beta: beta, into: output) }
            pass.kernels.activate(output, count: count, activation: activation)
            return
        }
        let other = pass.buffer(of: from[0]), otherShape = pass.plan.layers[from[0]].outputShape
        if otherShape == shape {
            pass.split(count, minimumPiece: 1 << 16) { span, _ in
                pass.kernels.shortcut(previous + span.lowerBound, other + span.lowerBound, count: span.count, alpha: alpha,
                         beta: beta, activation: activation, into: output + span.lowerBound)
            }
            return
        }
        // Darknet's `shortcut_cpu`: a copy of the previous output with the overlapping values
        // combined, then the activation. The planner accepted the shapes only if the geometry exists.
        let geometry = ShortcutGeometry(from: otherShape, to: shape)!
        output.update(from: previous, count: count)
        resampledShortcut(other, fromWidth: otherShape.width, fromHeight: otherShape.height, into: output,
                          toWidth: shape.width, toHeight: shape.height, geometry: geometry, alpha: alpha, beta: beta)
        pass.kernels.activate(output, count: count, activation: activation)
    }
}
