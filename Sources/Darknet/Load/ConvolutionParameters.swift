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
        guard algorithm.isWinograd else { return self }
        let transformed = weights.withUnsafeBufferPointer { weights in
            inMemory { () throws(WeightsError) in
                try Self.transformed(UncheckedFloats(memory: weights.baseAddress!, count: weights.count), filterScales: nil,
                                     for: algorithm, filters: filters, inputChannels: inputChannels).values
            }
        }
        return ConvolutionParameters(weights: transformed, biases: biases)
    }

    /// Epsilon Darknet adds to the standard deviation (not the variance) at inference.
    static let batchNormEpsilon: Float = 0.000001
    /// Epsilon AlexeyAB's fork adds to the variance.
    static let alexeyABBatchNormEpsilon: Float = 0.00001

    /// Reads one convolutional layer in Darknet's order: biases, [scales, mean, variance],
    /// weights; folds batch norm: `w' = w * s`, `b' = bias - mean * s` with
    /// `s = scale / (sqrt(variance) + 1e-6)` (`scale / sqrt(variance + 1e-5)` for AlexeyAB); and
    /// lays the weights out for `algorithm`. Winograd layers are transformed straight from the
    /// bytes read, with `s` applied on the way, with no intermediate copy.
    init(reading reader: inout WeightsReader, spec: ConvolutionalSpec, inputChannels: Int,
         dialect: DarknetDialect = .original, algorithm: ConvolutionAlgorithm = .im2col) throws(WeightsError) {
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
            if let bad = variances.firstIndex(where: { $0 < 0 }) {
                throw reader.error(.negativeVariance(element: bad, value: variances[bad]), at: varianceOffset + bad * 4)
            }
        } else {
            varianceOffset = reader.offset
        }
        let weightsOffset = reader.offset
        if algorithm.isWinograd, !spec.flipped,
           let unchecked = try reader.uncheckedFloats(filters * kernelArea, parameter: "weights") {
            var foldedBiases = biases
            let factors = spec.batchNormalize
                ? Self.foldFactors(biases: &foldedBiases, scales: scales, means: means, variances: variances, dialect: dialect)
                : nil
            // The weights are checked in the transform's pass over them. It grows a scaled weight
            // at most 2.25-fold (F(2x2, 3x3)'s G has row sums of |g| up to 1.5), so below this
            // bound nothing overflowed; otherwise (or with a non-finite weight, factor or bias)
            // the result is dropped and the weights read again the general way, which names the
            // value.
            if factors.map({ firstNonFinite($0) == nil }) ?? true, firstNonFinite(foldedBiases) == nil {
                let (weights, largestScaled) = try Self.transformed(unchecked, filterScales: factors, for: algorithm,
                                                                    filters: filters, inputChannels: inputChannels)
                if largestScaled.isFinite, Double(largestScaled) * 2.25 < Double(Float.greatestFiniteMagnitude) {
                    self.init(weights: weights, biases: foldedBiases)
                    return
                }
            }
            reader.rewind(to: weightsOffset)
        }
        var weights = try reader.readFloats(filters * kernelArea, parameter: "weights")
        if spec.flipped { weights = Self.transposed(weights, rows: kernelArea, columns: filters) }
        if spec.batchNormalize {
            Self.fold(weights: &weights, biases: &biases, scales: scales, means: means, variances: variances,
                      kernelArea: kernelArea, dialect: dialect)
            // Folding can still overflow (e.g. variance 0 with a huge scale).
            if let bad = firstNonFinite(weights) ?? firstNonFinite(biases) {
                throw reader.error(.nonFinite(parameter: "folded batch-norm weights", element: bad), at: varianceOffset)
            }
        }
        self = ConvolutionParameters(weights: weights, biases: biases)
            .prepared(for: algorithm, filters: filters, inputChannels: inputChannels)
    }

    init(weights: [Float], biases: [Float]) {
        self.weights = weights
        self.biases = biases
    }

    static func fold(weights: inout [Float], biases: inout [Float], scales: [Float], means: [Float],
                     variances: [Float], kernelArea: Int, dialect: DarknetDialect = .original) {
        let factors = foldFactors(biases: &biases, scales: scales, means: means, variances: variances, dialect: dialect)
        weights.withUnsafeMutableBufferPointer { w in
            for (f, factor) in factors.enumerated() {
                let row = w.baseAddress! + f * kernelArea
                for i in 0..<kernelArea { row[i] *= factor }
            }
        }
    }

    /// Each filter's batch-norm factor `s` (see `init(reading:)`), with `biases` shifted to `bias - mean * s`.
    static func foldFactors(biases: inout [Float], scales: [Float], means: [Float], variances: [Float],
                            dialect: DarknetDialect) -> [Float] {
        (0..<biases.count).map { f in
            let deviation = dialect == .alexeyAB ? sqrtf(variances[f] + Self.alexeyABBatchNormEpsilon)
                                                 : sqrtf(variances[f]) + Self.batchNormEpsilon
            let factor = scales[f] / deviation
            biases[f] -= means[f] * factor
            return factor
        }
    }

    /// Weights laid out for a Winograd `algorithm`, from row-major `filters x channels x 3 x 3`.
    private static func transformed(_ weights: UncheckedFloats, filterScales: [Float]?,
                                    for algorithm: ConvolutionAlgorithm, filters: Int,
                                    inputChannels: Int) throws(WeightsError) -> (values: [Float], largestScaledWeight: Float) {
        algorithm == .winogradF23
            ? try WinogradF23.transformWeights(weights, filterScales: filterScales, filters: filters, channels: inputChannels)
            : try WinogradF43.transformWeights(weights, filterScales: filterScales, filters: filters, channels: inputChannels,
                                               channelMajor: algorithm.hasTileMajorF43Weights)
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
