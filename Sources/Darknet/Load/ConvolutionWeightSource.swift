/// One convolution's learned values as loading hands them to its algorithm
/// (`ConvolutionMethod.load`): the biases and batch-norm statistics already read, in Darknet's
/// order (biases, [scales, rolling mean, rolling variance], weights), the weights still in the
/// file, so that an algorithm that transforms them (Winograd) reads them once, straight into its
/// layout, and the others read them folded (`folded()`).
package struct ConvolutionWeightSource {
    /// Positioned at the layer's weights; after `load`, past them.
    private(set) var reader: WeightsReader
    let spec: ConvolutionalSpec
    let inputChannels: Int
    let dialect: DarknetDialect
    /// The biases as stored (batch norm not yet folded).
    let storedBiases: [Float]
    let statistics: BatchNormFolding.Statistics?

    /// Reads one convolutional layer's biases and statistics from `reader`, which then stands at
    /// its weights.
    init(reading reader: WeightsReader, spec: ConvolutionalSpec, inputChannels: Int,
                 dialect: DarknetDialect) throws(WeightsError) {
        var reader = reader
        storedBiases = try reader.readFloats(spec.filters, parameter: "biases")
        statistics = spec.batchNormalize ? try BatchNormFolding.Statistics(reading: &reader, count: spec.filters) : nil
        self.reader = reader
        self.spec = spec
        self.inputChannels = inputChannels
        self.dialect = dialect
    }

    /// Weights row-major `filters x kernelArea` in memory, batch norm already folded (or none),
    /// as a source for `body` (tests, benchmarks).
    static func withFolded<R>(weights: [Float], biases: [Float],
                              _ body: (inout ConvolutionWeightSource) throws(WeightsError) -> R) throws(WeightsError) -> R {
        let filters = biases.count
        precondition(filters > 0 && weights.count % filters == 0, "\(weights.count) weights for \(filters) filters")
        let bytes = WeightsWriter.floatBytes(biases + weights)
        var result: Result<R, WeightsError>!
        bytes.withUnsafeBytes { raw in
            result = Result { () throws(WeightsError) -> R in
                var source = try ConvolutionWeightSource(
                    reading: WeightsReader(file: "<memory>", bytes: raw),
                    spec: ConvolutionalSpec(filters: filters, size: 1, padding: 0, batchNormalize: false, activation: .linear),
                    inputChannels: weights.count / filters, dialect: .original)
                return try body(&source)
            }
        }
        return try result.get()
    }

    private var filters: Int { spec.filters }
    private var kernelArea: Int { inputChannels / spec.groups * spec.size * spec.size }

    /// The weights row-major `filters x kernelArea` (transposed back where the cfg says
    /// `flipped`), batch norm folded into them and into the biases as `dialect` folds it,
    /// checked finite.
    package mutating func folded() throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        var weights = try reader.readFloats(filters * kernelArea, parameter: "weights")
        var biases = storedBiases
        if spec.flipped { weights = transposed(weights, rows: kernelArea, columns: filters) }
        if let statistics {
            BatchNormFolding.fold(weights: &weights, biases: &biases, rowLength: kernelArea, statistics, dialect: dialect)
            try BatchNormFolding.checkFinite(weights, biases, what: "folded batch-norm weights", reader: reader, statistics)
        }
        return (weights, biases)
    }

    /// The weights laid out by `transform`, and the folded biases. Unflipped weights go straight
    /// from the file through the transform, a run at a time, batch norm folded on the way; the
    /// result is kept only if nothing in it can have overflowed (`WeightTransform.growth`).
    /// Otherwise (or with a non-finite factor or bias) they are read again the general way, whose
    /// errors name the value, and transformed from memory.
    package mutating func transformed(by transform: some WeightTransform) throws(WeightsError)
        -> (weights: [Float], biases: [Float]) {
        let weightsOffset = reader.offset
        if !spec.flipped, let unchecked = try reader.uncheckedFloats(filters * kernelArea, parameter: "weights") {
            var foldedBiases = storedBiases
            let factors = statistics.map { BatchNormFolding.factors(biases: &foldedBiases, $0, dialect: dialect) }
            if factors.map({ firstNonFinite($0) == nil }) ?? true, firstNonFinite(foldedBiases) == nil {
                let (values, largest) = try transform.apply(unchecked, filterScales: factors)
                if largest.isFinite, Double(largest) * transform.growth < Double(Float.greatestFiniteMagnitude) {
                    return (values, foldedBiases)
                }
            }
            reader.rewind(to: weightsOffset)
        }
        let (weights, biases) = try folded()
        let values = weights.withUnsafeBufferPointer { weights in
            transform.apply(MemoryWeightRuns(weights.baseAddress!, count: weights.count), filterScales: nil).values
        }
        return (values, biases)
    }
}

/// A linear map of a convolution's row-major weights into an algorithm's layout that can read
/// them a run at a time and fold each filter's batch-norm factor in on the way (Winograd's
/// `G g Gᵀ`).
package protocol WeightTransform {
    /// How much the transform can enlarge a scaled weight's magnitude at most: a result whose
    /// largest scaled weight times this is finite did not overflow.
    var growth: Double { get }
    /// The laid-out values of `weights` (each filter's times `filterScales[filter]` when given),
    /// and the largest magnitude among the scaled weights (NaN or infinity if any is one).
    func apply<Runs: WeightRuns>(_ weights: Runs, filterScales: [Float]?) throws(Runs.Failure)
        -> (values: [Float], largestScaledWeight: Float)
}
