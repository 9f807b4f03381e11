/// A convolution's learned values, batch norm already folded in.
///
/// `biases` has one value per filter; `weights` are in the layout of the layer's algorithm.
public struct ConvolutionParameters: Sendable, Equatable {
    /// Folded weights in the layout of the layer's algorithm: `filters x kernelArea` for the
    /// GEMM and sliding-window paths, `channels x filters` for `.pointwise`,
    /// `[36][filters][channels]` for Winograd, `[36][channels][padded filters]` for few-tile
    /// Winograd and `[16][channels][padded filters]` for F(2x2, 3x3).
    public let weights: [Float]
    public let biases: [Float]

    init(weights: [Float], biases: [Float]) {
        self.weights = weights
        self.biases = biases
    }

    /// Row-major `filters x kernelArea` weights laid out for `algorithm`.
    package init(weights: [Float], biases: [Float], for algorithm: ConvolutionAlgorithm, filters: Int, inputChannels: Int) {
        if algorithm == .pointwise {
            self.init(weights: transposed(weights, rows: filters, columns: inputChannels), biases: biases)
            return
        }
        guard algorithm.isWinograd else {
            self.init(weights: weights, biases: biases)
            return
        }
        let transformed = weights.withUnsafeBufferPointer { weights in
            Self.transformed(MemoryWeightRuns(weights.baseAddress!, count: weights.count), filterScales: nil,
                             for: algorithm, filters: filters, inputChannels: inputChannels).values
        }
        self.init(weights: transformed, biases: biases)
    }

    /// Reads one convolutional layer in Darknet's order: biases, [scales, mean, variance],
    /// weights; folds batch norm as `dialect` does (`BatchNormFolding`); and lays the weights out
    /// for `algorithm`. Winograd layers are transformed straight from the bytes read, with the
    /// batch-norm factor applied on the way, with no intermediate copy.
    init(reading reader: inout WeightsReader, spec: ConvolutionalSpec, inputChannels: Int,
         dialect: DarknetDialect, algorithm: ConvolutionAlgorithm) throws(WeightsError) {
        let filters = spec.filters
        let kernelArea = inputChannels / spec.groups * spec.size * spec.size
        var biases = try reader.readFloats(filters, parameter: "biases")
        let statistics = spec.batchNormalize ? try BatchNormFolding.Statistics(reading: &reader, count: filters) : nil
        let weightsOffset = reader.offset
        if algorithm.isWinograd, !spec.flipped,
           let unchecked = try reader.uncheckedFloats(filters * kernelArea, parameter: "weights") {
            var foldedBiases = biases
            let factors = statistics.map { BatchNormFolding.factors(biases: &foldedBiases, $0, dialect: dialect) }
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
        if spec.flipped { weights = transposed(weights, rows: kernelArea, columns: filters) }
        if let statistics {
            BatchNormFolding.fold(weights: &weights, biases: &biases, rowLength: kernelArea, statistics, dialect: dialect)
            try BatchNormFolding.checkFinite(weights, biases, what: "folded batch-norm weights", reader: reader, statistics)
        }
        self.init(weights: weights, biases: biases, for: algorithm, filters: filters, inputChannels: inputChannels)
    }

    /// Weights laid out for a Winograd `algorithm`, from row-major `filters x channels x 3 x 3`.
    private static func transformed<Runs: WeightRuns>(_ weights: Runs, filterScales: [Float]?,
                                                      for algorithm: ConvolutionAlgorithm, filters: Int,
                                                      inputChannels: Int) throws(Runs.Failure)
        -> (values: [Float], largestScaledWeight: Float) {
        algorithm == .winogradF23
            ? try WinogradF23.transformWeights(weights, filterScales: filterScales, filters: filters, channels: inputChannels)
            : try WinogradF43.transformWeights(weights, filterScales: filterScales, filters: filters, channels: inputChannels,
                                               channelMajor: algorithm.hasTileMajorF43Weights)
    }
}
