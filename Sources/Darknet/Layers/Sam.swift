/// `[sam]` (AlexeyAB, spatial attention): the element-wise product of the previous layer's
/// output and an earlier layer's output of the same shape.
public struct SamSpec: Sendable, Equatable {
    /// Absolute index of the other factor (`from`, relative resolved).
    public var from: Int
    /// Applied to the product (`activation`, default linear).
    public var activation: Activation

    public init(from: Int, activation: Activation = .linear) {
        self.from = from
        self.activation = activation
    }
}

extension SamSpec: WeightlessLayer {
    static let sectionNames = ["sam"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> SamSpec {
        let from = try r.singleSource(at: index)
        return SamSpec(from: from, activation: try r.multiplyActivation(section: "sam"))
    }

    var needsAlexeyAB: Bool { true }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let fromShape = context.outputShape(of: from)
        guard fromShape == context.input else {
            throw context.fail(.scaleShapeMismatch(previous: context.input, from: fromShape, fromLayer: from))
        }
        return LayerPlanning(output: context.input, sources: [context.index - 1, from])
    }

    func summary(_ layer: LayerPlan) -> String {
        "sam  \(from)" + String(repeating: " ", count: 18) + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        pass.kernels.multiply(pass.input(of: layer), pass.buffer(of: from), count: layer.outputShape.count, activation: activation,
                 into: pass.output(of: layer))
    }
}
