import Foundation

/// A convolution's learned values, batch norm already folded in.
///
/// `weights` is row-major `filters x (channels / groups * size * size)`, the GEMM's A matrix;
/// `biases` has one value per filter.
public struct ConvolutionParameters: Sendable, Equatable {
    /// Folded weights in the layout of the layer's algorithm: `filters x kernelArea` for the
    /// GEMM and sliding-window paths, `[36][filters][channels]` for Winograd,
    /// `[36][channels][padded filters]` for few-tile Winograd and `[16][channels][padded filters]`
    /// for F(2x2, 3x3).
    public let weights: [Float]
    public let biases: [Float]

    /// The same parameters with the weights rearranged for `algorithm`.
    func prepared(for algorithm: ConvolutionAlgorithm, filters: Int, inputChannels: Int) -> ConvolutionParameters {
        switch algorithm {
        case .winograd, .winogradFewTiles:
            let transformed = WinogradF43.transformWeights(weights, filters: filters, channels: inputChannels,
                                                           channelMajor: algorithm == .winogradFewTiles)
            return ConvolutionParameters(weights: transformed, biases: biases)
        case .winogradF23:
            let transformed = WinogradF23.transformWeights(weights, filters: filters, channels: inputChannels)
            return ConvolutionParameters(weights: transformed, biases: biases)
        case .direct, .im2col, .slidingWindow:
            return self
        }
    }

    /// Epsilon Darknet adds to the standard deviation (not the variance) at inference.
    static let batchNormEpsilon: Float = 0.000001
    /// Epsilon AlexeyAB's fork adds to the variance.
    static let alexeyABBatchNormEpsilon: Float = 0.00001

    /// Reads one convolutional layer in Darknet's order: biases, [scales, mean, variance],
    /// weights; then folds batch norm: `w' = w * s`, `b' = bias - mean * s` with
    /// `s = scale / (sqrt(variance) + 1e-6)` (`scale / sqrt(variance + 1e-5)` for AlexeyAB).
    init(reading reader: inout WeightsReader, spec: ConvolutionalSpec, inputChannels: Int,
         dialect: DarknetDialect = .original) throws(WeightsError) {
        let filters = spec.filters
        let kernelArea = inputChannels / spec.groups * spec.size * spec.size
        var biases = try reader.readFloats(filters, parameter: "biases")
        var scales: [Float] = [], means: [Float] = [], variances: [Float] = []
        let varianceOffset: Int
        if spec.batchNormalize {
            scales = try reader.readFloats(filters, parameter: "scales")
            means = try reader.readFloats(filters, parameter: "rolling_mean")
            varianceOffset = reader.offset
            variances = try reader.readFloats(filters, parameter: "rolling_variance")
        } else {
            varianceOffset = reader.offset
        }
        var weights = try reader.readFloats(filters * kernelArea, parameter: "weights")
        if spec.flipped { weights = Self.transposed(weights, rows: kernelArea, columns: filters) }
        if spec.batchNormalize {
            if let bad = variances.firstIndex(where: { $0 < 0 }) {
                throw reader.error(.negativeVariance(element: bad, value: variances[bad]), at: varianceOffset + bad * 4)
            }
            Self.fold(weights: &weights, biases: &biases, scales: scales, means: means, variances: variances,
                      kernelArea: kernelArea, dialect: dialect)
            // Folding can still overflow (e.g. variance 0 with a huge scale).
            if let bad = firstNonFinite(weights) ?? firstNonFinite(biases) {
                throw reader.error(.nonFinite(parameter: "folded batch-norm weights", element: bad), at: varianceOffset)
            }
        }
        self.weights = weights
        self.biases = biases
    }

    init(weights: [Float], biases: [Float]) {
        self.weights = weights
        self.biases = biases
    }

    static func fold(weights: inout [Float], biases: inout [Float], scales: [Float], means: [Float],
                     variances: [Float], kernelArea: Int, dialect: DarknetDialect = .original) {
        weights.withUnsafeMutableBufferPointer { w in
            for f in 0..<biases.count {
                let deviation = dialect == .alexeyAB ? sqrtf(variances[f] + Self.alexeyABBatchNormEpsilon)
                                                     : sqrtf(variances[f]) + Self.batchNormEpsilon
                let factor = scales[f] / deviation
                biases[f] -= means[f] * factor
                let row = w.baseAddress! + f * kernelArea
                for i in 0..<kernelArea { row[i] *= factor }
            }
        }
    }

    /// `values` is `rows x columns` row-major; the result is `columns x rows`.
    static func transposed(_ values: [Float], rows: Int, columns: Int) -> [Float] {
        var result = [Float](repeating: 0, count: values.count)
        for r in 0..<rows {
            for c in 0..<columns { result[c * rows + r] = values[r * columns + c] }
        }
        return result
    }
}
