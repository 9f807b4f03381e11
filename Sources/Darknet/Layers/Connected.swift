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

    static func decode(_ r: inout SectionReader, index: Int) throws(CfgError) -> ConnectedSpec {
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

    /// Darknet's `load_connected_weights` order: biases, weights, then scales, rolling mean and
    /// variance if `batch_normalize`.
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        let norm = batchNormalize ? [("scales", outputs), ("rolling_mean", outputs), ("rolling_variance", outputs)] : []
        return [("biases", outputs), ("weights", outputs &* layer.inputShape.count)] + norm
    }

    /// Reads the layer and folds its batch norm. With `transposed` (header major or minor above
    /// 1000) the file holds the weights as `inputs x outputs`; they are turned to `outputs x inputs`.
    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        let inputs = layer.inputShape.count
        var biases = try reader.readFloats(outputs, parameter: "biases")
        var weights = try reader.readFloats(outputs * inputs, parameter: "weights")
        if context.transposed { weights = transposed(weights, rows: inputs, columns: outputs) }
        if batchNormalize {
            let statistics = try BatchNormFolding.Statistics(reading: &reader, count: outputs)
            BatchNormFolding.fold(weights: &weights, biases: &biases, rowLength: inputs, statistics, dialect: context.dialect)
            try BatchNormFolding.checkFinite(weights, biases, what: "folded batch-norm weights", reader: reader, statistics)
        }
        return ConnectedStep(spec: self, weights: weights, biases: biases)
    }
}

/// A connected layer's forward: one GEMV of `outputs x inputs` weights with the flattened input,
/// then bias and activation.
struct ConnectedStep: LayerStep {
    let spec: ConnectedSpec
    /// Row-major `outputs x inputs`, batch norm folded.
    let weights: [Float]
    let biases: [Float]

    var parameterArrays: [[Float]] { [weights, biases] }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let input = pass.input(of: layer), output = pass.output(of: layer)
        let inputs = layer.inputShape.count
        weights.withUnsafeBufferPointer { weights in
            BLAS.sgemm(m: spec.outputs, n: 1, k: inputs, a: weights.baseAddress!, lda: inputs, b: input, ldb: 1, c: output, ldc: 1)
        }
        biases.withUnsafeBufferPointer { biases in
            addBiasAndActivate(output, biases: biases.baseAddress!, channels: spec.outputs, planeSize: 1,
                               activation: spec.activation)
        }
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
