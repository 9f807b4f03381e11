import Foundation

/// Reading `[connected]` and `[batchnorm]` parameters. Both are stored as
/// `ConvolutionParameters`: a connected layer is a GEMM of `outputs x inputs` weights with
/// the flattened input; a batch-norm layer is one factor (`weights[c]`) and one shift
/// (`biases[c]`) per channel.
extension ConvolutionParameters {
    /// Reads one `[connected]` layer in Darknet's order (`load_connected_weights`): biases,
    /// weights, then scales, rolling mean and variance if `batch_normalize`; then folds the
    /// batch norm. With `transposed` (header major or minor above 1000) the file holds the
    /// weights as `inputs x outputs` and they are transposed to `outputs x inputs`.
    init(readingConnected reader: inout WeightsReader, spec: ConnectedSpec, inputs: Int,
         transposed: Bool) throws(WeightsError) {
        let outputs = spec.outputs
        var biases = try reader.readFloats(outputs, parameter: "biases")
        var weights = try reader.readFloats(outputs * inputs, parameter: "weights")
        if transposed { weights = Self.transposed(weights, rows: inputs, columns: outputs) }
        if spec.batchNormalize {
            let scales = try reader.readFloats(outputs, parameter: "scales")
            let means = try reader.readFloats(outputs, parameter: "rolling_mean")
            let varianceOffset = reader.offset
            let variances = try reader.readFloats(outputs, parameter: "rolling_variance")
            try Self.checkVariances(variances, reader: reader, offset: varianceOffset)
            Self.fold(weights: &weights, biases: &biases, scales: scales, means: means, variances: variances,
                      kernelArea: inputs)
            if let bad = firstNonFinite(weights) ?? firstNonFinite(biases) {
                throw reader.error(.nonFinite(parameter: "folded batch-norm weights", element: bad), at: varianceOffset)
            }
        }
        self.init(weights: weights, biases: biases)
    }

    /// Reads one `[batchnorm]` layer (`load_batchnorm_weights`): scales, rolling mean and
    /// variance of `channels` values, as `factor = scale / (sqrt(variance) + 1e-6)` and
    /// `shift = -mean * factor` (the layer has no bias of its own).
    init(readingBatchnorm reader: inout WeightsReader, channels: Int) throws(WeightsError) {
        let scales = try reader.readFloats(channels, parameter: "scales")
        let means = try reader.readFloats(channels, parameter: "rolling_mean")
        let varianceOffset = reader.offset
        let variances = try reader.readFloats(channels, parameter: "rolling_variance")
        try Self.checkVariances(variances, reader: reader, offset: varianceOffset)
        var factors = [Float](repeating: 1, count: channels)
        var shifts = [Float](repeating: 0, count: channels)
        Self.fold(weights: &factors, biases: &shifts, scales: scales, means: means, variances: variances, kernelArea: 1)
        if let bad = firstNonFinite(factors) ?? firstNonFinite(shifts) {
            throw reader.error(.nonFinite(parameter: "folded batch-norm factors", element: bad), at: varianceOffset)
        }
        self.init(weights: factors, biases: shifts)
    }

    private static func checkVariances(_ variances: [Float], reader: WeightsReader, offset: Int) throws(WeightsError) {
        if let bad = variances.firstIndex(where: { $0 < 0 }) {
            throw reader.error(.negativeVariance(element: bad, value: variances[bad]), at: offset + bad * 4)
        }
    }
}
