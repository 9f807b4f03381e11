/// `[batchnorm]`: a stand-alone batch normalisation per channel (Darknet adds no bias):
/// `(x - mean) / (sqrt(variance) + 1e-6) * scale`, or `/ sqrt(variance + 1e-5)` in AlexeyAB's fork.
public struct BatchnormSpec: Sendable, Equatable {}

extension BatchnormSpec: Layer {
    static let sectionNames = ["batchnorm"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> BatchnormSpec { BatchnormSpec() }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        LayerPlanning(output: context.input, parameters: 2 * context.input.channels)
    }

    func summary(_ layer: LayerPlan) -> String {
        "batchnorm               " + layer.shapes
    }

    /// Darknet's `load_batchnorm_weights`: scales, rolling mean and variance.
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        let channels = layer.inputShape.channels
        return [("scales", channels), ("rolling_mean", channels), ("rolling_variance", channels)]
    }

    /// One factor and one shift per channel (`shift = -mean * factor`).
    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        let channels = layer.inputShape.channels
        let statistics = try BatchNormFolding.Statistics(reading: &reader, count: channels)
        var shifts = [Float](repeating: 0, count: channels)
        let factors = BatchNormFolding.factors(biases: &shifts, statistics, dialect: context.dialect)
        try BatchNormFolding.checkFinite(factors, shifts, what: "folded batch-norm factors", reader: reader, statistics)
        return BatchnormStep(factors: factors, shifts: shifts)
    }
}

/// `x * factor + shift` per channel.
struct BatchnormStep: LayerStep {
    let factors: [Float]
    let shifts: [Float]

    var parameterArrays: [[Float]] { [factors, shifts] }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let shape = layer.inputShape
        factors.withUnsafeBufferPointer { factors in
            shifts.withUnsafeBufferPointer { shifts in
                scaleAndShift(pass.input(of: layer), factors: factors.baseAddress!, shifts: shifts.baseAddress!,
                              channels: shape.channels, planeSize: shape.planeSize, into: pass.output(of: layer))
            }
        }
    }
}
