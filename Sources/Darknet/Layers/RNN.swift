import Foundation

/// `[rnn]`: Darknet's vanilla recurrent layer, three `[connected]` sub-layers with the layer's
/// activation: `state = input(x) + self(state)` (plus the old state with `shortcut`), output
/// `output(state)`. The state is carried from one forward pass to the next (one time step each,
/// as `darknet rnn generate` runs it).
public struct RNNSpec: Sendable, Equatable {
    /// Values of the state and of the output (`output`, default 1).
    public var outputs: Int
    /// Of every sub-layer (`activation`, default `logistic`).
    public var activation: Activation
    /// Batch norm in every sub-layer (`batch_normalize`), folded at load.
    public var batchNormalize: Bool
    /// The old state is kept in the sum (`shortcut`, default 0).
    public var shortcut: Bool
}

extension RNNSpec: DenseRecurrentLayer {
    static let sectionNames = ["rnn"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> RNNSpec {
        // Darknet's parse_rnn never reads `hidden` (the state has `output` values).
        r.ignore(["hidden"])
        return RNNSpec(outputs: try r.int("output", default: 1, minimum: 1),
                       activation: try r.activation("activation", default: .logistic),
                       batchNormalize: try r.bool("batch_normalize", default: false),
                       shortcut: try r.bool("shortcut", default: false))
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        try planning(context, threadScratch: 2 * outputs, state: outputs)
    }

    /// `load_weights`: the input, self and output sub-layers, each a `[connected]` block (the same
    /// in both dialects).
    static func sublayers(inputs: Int, outputs: Int, dialect: DarknetDialect) -> [(name: String, inputs: Int)] {
        [("input_layer", inputs), ("self_layer", outputs), ("output_layer", outputs)]
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        let blocks = try readSublayers(layer, from: &reader, context: context).blocks
        return RNNStep(spec: self, input: blocks[0], recurrent: blocks[1], output: blocks[2])
    }
}

/// One time step of an `[rnn]` layer (`RecurrentCells.rnnStep`) on the session's state.
struct RNNStep: LayerStep {
    let spec: RNNSpec
    let input: DenseBlock
    let recurrent: DenseBlock
    let output: DenseBlock

    var parameterArrays: [[Float]] { [input, recurrent, output].flatMap(\.parameterArrays) }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        RecurrentCells.rnnStep(pass.input(of: layer), input: input.sublayer(spec.activation, kernels: pass.kernels),
                               self: recurrent.sublayer(spec.activation, kernels: pass.kernels), output: output.sublayer(spec.activation, kernels: pass.kernels),
                               shortcut: spec.shortcut, state: pass.state(of: layer), scratch: pass.threadScratch,
                               output: pass.output(of: layer))
    }
}
