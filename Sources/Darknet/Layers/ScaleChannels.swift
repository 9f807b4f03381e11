/// `[scale_channels]` (AlexeyAB): multiplies an earlier layer's output by the previous
/// layer's values, one per channel (squeeze-and-excitation) or, with `scale_wh=1`, one per
/// pixel.
public struct ScaleChannelsSpec: Sendable, Equatable {
    /// Absolute index of the scaled layer (`from`, relative resolved); its shape is the output's.
    public var from: Int
    /// `scale_wh=1`: the previous layer is one `H x W` plane that scales every channel.
    public var scaleWH: Bool
    /// Applied to the product (`activation`, default linear).
    public var activation: Activation

    public init(from: Int, scaleWH: Bool = false, activation: Activation = .linear) {
        self.from = from
        self.scaleWH = scaleWH
        self.activation = activation
    }
}

extension ScaleChannelsSpec: WeightlessLayer {
    static let sectionNames = ["scale_channels"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> ScaleChannelsSpec {
        let from = try r.singleSource(at: index)
        return ScaleChannelsSpec(from: from, scaleWH: try r.bool("scale_wh", default: false),
                                 activation: try r.multiplyActivation(section: "scale_channels"))
    }

    var needsAlexeyAB: Bool { true }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input, fromShape = context.outputShape(of: from)
        let fits = scaleWH
            ? input.channels == 1 && input.height == fromShape.height && input.width == fromShape.width
            : input.height == 1 && input.width == 1 && input.channels == fromShape.channels
        guard fits else { throw context.fail(.scaleShapeMismatch(previous: input, from: fromShape, fromLayer: from)) }
        return LayerPlanning(output: fromShape, sources: [context.index - 1, from])
    }

    func summary(_ layer: LayerPlan) -> String {
        "scale_channels \(from)" + String(repeating: " ", count: 8) + layer.shapes
    }

    /// The `from` layer's output scaled per channel (or per pixel with `scale_wh`) by the previous
    /// layer's output; the output has `from`'s shape.
    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let scale = pass.input(of: layer), output = pass.output(of: layer), shape = layer.outputShape
        let scaled = pass.buffer(of: from)
        if scaleWH {
            pass.kernels.scaleByPlane(scaled, plane: scale, channels: shape.channels, planeSize: shape.planeSize, into: output)
        } else {
            pass.kernels.scaleByChannel(scaled, scale: scale, channels: shape.channels, planeSize: shape.planeSize, into: output)
        }
        pass.kernels.activate(output, count: shape.count, activation: activation)
    }
}
