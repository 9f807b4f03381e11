import Foundation

/// `[gru]`: Darknet's gated recurrent unit, six linear `[connected]` sub-layers (`wz`, `wr`, `wh` on
/// the state, `uz`, `ur`, `uh` on the input): `z = σ(uz(x) + wz(s))`, `r = σ(ur(x) + wr(s))`,
/// `h = σ(uh(x) + wh(r ⊙ s))` (tanh with `tanh=1`), output and new state `z ⊙ s + (1 - z) ⊙ h`.
/// The state is carried from one forward pass to the next (one time step each).
public struct GRUSpec: Sendable, Equatable {
    /// Values of the state and of the output (`output`, default 1).
    public var outputs: Int
    /// Batch norm in every sub-layer (`batch_normalize`), folded at load.
    public var batchNormalize: Bool
    /// tanh instead of the logistic for the candidate state (`tanh`, default 0).
    public var tanh: Bool
}

extension GRUSpec: DenseRecurrentLayer {
    static let sectionNames = ["gru"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> GRUSpec {
        GRUSpec(outputs: try r.int("output", default: 1, minimum: 1),
                batchNormalize: try r.bool("batch_normalize", default: false),
                tanh: try r.bool("tanh", default: false))
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        try planning(context, threadScratch: 4 * outputs, state: outputs)
    }

    /// `load_weights`' order (not the order Darknet creates them in): `wz`, `wr`, `wh`, then `uz`,
    /// `ur`, `uh`, each a `[connected]` block (the same in both dialects).
    static func sublayers(inputs: Int, outputs: Int, dialect: DarknetDialect) -> [(name: String, inputs: Int)] {
        [("wz", outputs), ("wr", outputs), ("wh", outputs), ("uz", inputs), ("ur", inputs), ("uh", inputs)]
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        GRUStep(spec: self, blocks: try readSublayers(layer, from: &reader, context: context).blocks)
    }
}

/// One time step of a `[gru]` layer (`RecurrentCells.gruStep`) on the session's state.
struct GRUStep: LayerStep {
    let spec: GRUSpec
    /// `wz`, `wr`, `wh`, `uz`, `ur`, `uh`.
    let blocks: [DenseBlock]

    var parameterArrays: [[Float]] { blocks.flatMap(\.parameterArrays) }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let linear = blocks.map { $0.sublayer(.linear, kernels: pass.kernels) }
        RecurrentCells.gruStep(pass.input(of: layer), uz: linear[3], ur: linear[4], uh: linear[5],
                               wz: linear[0], wr: linear[1], wh: linear[2], tanh: spec.tanh,
                               state: pass.state(of: layer), scratch: pass.threadScratch, output: pass.output(of: layer))
    }
}
