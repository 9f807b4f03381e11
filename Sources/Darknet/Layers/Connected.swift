import Foundation

/// `[connected]` / `[conn]`: fully connected layer over the flattened input.
public struct ConnectedSpec: Sendable, Equatable {
    /// Output values (`output`, default 1).
    public var outputs: Int
    /// Applied after the bias (`activation`, default `logistic` as in Darknet).
    public var activation: Activation
    /// Whether batch-norm parameters follow the weights in the weights file
    /// (`batch_normalize`); folded at load.
    public var batchNormalize: Bool
}

extension ConnectedSpec: Layer {
    static let sectionNames = ["connected", "conn"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> ConnectedSpec {
        ConnectedSpec(outputs: try r.int("output", default: 1, minimum: 1),
                      activation: try r.activation("activation", default: .logistic),
                      batchNormalize: try r.bool("batch_normalize", default: false))
    }

    var needsAlexeyAB: Bool { activation.isAlexeyABOnly }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let inputs = context.input.count
        let (weights, overflow) = outputs.multipliedReportingOverflow(by: inputs + 1)
        // BLAS takes the input size (GEMM's k) as a 32-bit int.
        guard !overflow, inputs < Int(Int32.max) else { throw context.fail(.sizeOverflow) }
        return LayerPlanning(output: TensorShape(channels: outputs, height: 1, width: 1), parameters: weights)
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "connected                            %4d  ->  %4d", layer.inputShape.count, layer.outputShape.count)
    }

    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        DenseBlock.storedParameters(inputs: layer.inputShape.count, outputs: outputs, batchNormalize: batchNormalize)
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        ConnectedStep(activation: activation,
                      block: try DenseBlock(reading: &reader, inputs: layer.inputShape.count, outputs: outputs,
                                            batchNormalize: batchNormalize, context: context))
    }
}

/// A connected layer's forward: its block on the flattened input.
struct ConnectedStep: LayerStep {
    let activation: Activation
    let block: DenseBlock

    var parameterArrays: [[Float]] { block.parameterArrays }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        block.forward(pass.input(of: layer), into: pass.output(of: layer), activation: activation, kernels: pass.kernels)
    }
}

/// The parameters of one `[connected]` block (a `[connected]` layer, or a sub-layer of `[rnn]` and
/// `[gru]`): `outputs x inputs` weights and the biases, batch norm folded. Immutable after
/// loading; its memory stays where the forward pass's kernels can point at it.
final class DenseBlock: @unchecked Sendable {
    let inputs: Int
    let outputs: Int
    let weights: UnsafeMutablePointer<Float>
    let biases: UnsafeMutablePointer<Float>

    /// `load_connected_weights`' order: biases, weights, then scales, rolling mean and variance
    /// with batch norm; `prefix` names a sub-layer (`input_layer.` in `input_layer.biases`).
    static func storedParameters(inputs: Int, outputs: Int, batchNormalize: Bool, prefix: String = "")
        -> [(name: String, count: Int)] {
        let norm = batchNormalize ? [("scales", outputs), ("rolling_mean", outputs), ("rolling_variance", outputs)] : []
        return ([("biases", outputs), ("weights", outputs &* inputs)] + norm).map { (prefix + $0.0, $0.1) }
    }

    /// The stored arrays of named sub-layers (`(name, inputs)` each, all of `outputs`), in order.
    static func storedParameters(of sublayers: [(name: String, inputs: Int)], outputs: Int, batchNormalize: Bool)
        -> [(name: String, count: Int)] {
        sublayers.flatMap { storedParameters(inputs: $0.inputs, outputs: outputs, batchNormalize: batchNormalize, prefix: $0.name + ".") }
    }

    /// Reads named sub-layers in order (a recurrent layer's).
    static func read(_ sublayers: [(name: String, inputs: Int)], outputs: Int, batchNormalize: Bool,
                     from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError) -> [DenseBlock] {
        var blocks: [DenseBlock] = []
        for (name, inputs) in sublayers {
            blocks.append(try DenseBlock(reading: &reader, inputs: inputs, outputs: outputs, batchNormalize: batchNormalize,
                                         prefix: name + ".", context: context))
        }
        return blocks
    }

    /// Reads the block and folds its batch norm. With `context.transposed` (header major or minor
    /// above 1000) the file holds the weights as `inputs x outputs`; they are turned to `outputs x inputs`.
    init(reading reader: inout WeightsReader, inputs: Int, outputs: Int, batchNormalize: Bool, prefix: String = "",
         context: LoadingContext) throws(WeightsError) {
        var biases = try reader.readFloats(outputs, parameter: prefix + "biases")
        var weights = try reader.readFloats(outputs * inputs, parameter: prefix + "weights")
        if context.transposed { weights = transposed(weights, rows: inputs, columns: outputs) }
        if batchNormalize {
            let statistics = try BatchNormFolding.Statistics(reading: &reader, count: outputs, prefix: prefix)
            BatchNormFolding.fold(weights: &weights, biases: &biases, rowLength: inputs, statistics, dialect: context.dialect)
            try BatchNormFolding.checkFinite(weights, biases, what: "folded batch-norm weights", reader: reader, statistics)
        }
        self.inputs = inputs
        self.outputs = outputs
        self.weights = .allocate(capacity: max(weights.count, 1))
        self.weights.initialize(from: weights, count: weights.count)
        self.biases = .allocate(capacity: max(biases.count, 1))
        self.biases.initialize(from: biases, count: biases.count)
    }

    deinit {
        weights.deallocate()
        biases.deallocate()
    }

    var parameterArrays: [[Float]] {
        [Array(UnsafeBufferPointer(start: weights, count: outputs * inputs)), Array(UnsafeBufferPointer(start: biases, count: outputs))]
    }

    /// `output = activation(weights * input + biases)`: one GEMV.
    func forward(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, activation: Activation,
                 kernels: VectorKernels) {
        BLAS.sgemm(m: outputs, n: 1, k: inputs, a: weights, lda: inputs, b: input, ldb: 1, c: output, ldc: 1)
        kernels.addBiasAndActivate(output, biases: biases, channels: outputs, planeSize: 1, activation: activation)
    }

    /// The block as the recurrent cells take it.
    func sublayer(_ activation: Activation, kernels: VectorKernels) -> ConnectedSublayer {
        ConnectedSublayer(inputs: inputs, outputs: outputs, weights: weights, biases: biases, activation: activation,
                          kernels: kernels)
    }
}

/// `values` is `rows x columns` row-major; the result is `columns x rows`.
func transposed(_ values: [Float], rows: Int, columns: Int) -> [Float] {
    var result = [Float](repeating: 0, count: values.count)
    for r in 0..<rows {
        for c in 0..<columns { result[c * rows + r] = values[r * columns + c] }
    }
    return result
}
