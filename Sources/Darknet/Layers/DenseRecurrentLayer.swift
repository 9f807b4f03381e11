/// A recurrent layer built from `[connected]` sub-layers that all have the layer's `outputs`
/// (`[rnn]`, `[gru]`, `[lstm]`): its parameter count, its stored arrays and the reading of its
/// weights all follow from the list of sub-layers.
protocol DenseRecurrentLayer: Layer {
    /// Values of each sub-layer's output (the layer's `output`).
    var outputs: Int { get }
    /// Batch norm in every sub-layer (`batch_normalize`), folded at load.
    var batchNormalize: Bool { get }
    /// The sub-layers as `(name, inputs)`, in the order `dialect`'s weights files store them.
    static func sublayers(inputs: Int, outputs: Int, dialect: DarknetDialect) -> [(name: String, inputs: Int)]
}

extension DenseRecurrentLayer {
    /// The layer's plan: a vector of `outputs` values, the given scratch and state, and the
    /// parameters of its sub-layers.
    func planning(_ context: LayerPlanningContext, threadScratch: Int, state: Int) throws(PlanError) -> LayerPlanning {
        LayerPlanning(output: TensorShape(channels: outputs, height: 1, width: 1), threadScratch: threadScratch,
                      state: state, parameters: try parameterCount(context))
    }

    /// The weights and biases of all sub-layers, `(inputs + 1) * outputs` each; a size overflow
    /// if the count does not fit in an `Int`.
    func parameterCount(_ context: LayerPlanningContext) throws(PlanError) -> Int {
        var total = 0
        for sublayer in Self.sublayers(inputs: context.input.count, outputs: outputs, dialect: .original) {
            let (sum, overflow) = total.addingReportingOverflow(try context.product(sublayer.inputs + 1, outputs))
            guard !overflow else { throw context.fail(.sizeOverflow) }
            total = sum
        }
        return total
    }

    /// Darknet's line for the layer: its section name, then the input and output sizes.
    func summary(_ layer: LayerPlan) -> String {
        Self.sectionNames[0].padding(toLength: 37, withPad: " ", startingAt: 0)
            + String(format: "%4d  ->  %4d", layer.inputShape.count, outputs)
    }

    /// Each sub-layer's `[connected]` arrays, prefixed by its name, in the original Darknet's order.
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        DenseBlock.storedParameters(of: Self.sublayers(inputs: layer.inputShape.count, outputs: outputs, dialect: .original),
                                    outputs: outputs, batchNormalize: batchNormalize)
    }

    /// Reads the sub-layers in `context.dialect`'s order; the blocks come in that order, with the
    /// list that names them.
    func readSublayers(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext)
        throws(WeightsError) -> (order: [(name: String, inputs: Int)], blocks: [DenseBlock]) {
        let order = Self.sublayers(inputs: layer.inputShape.count, outputs: outputs, dialect: context.dialect)
        return (order, try DenseBlock.read(order, outputs: outputs, batchNormalize: batchNormalize, from: &reader,
                                           context: context))
    }
}
