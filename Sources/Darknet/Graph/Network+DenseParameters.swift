/// Parameters of the layers other than convolutions: `[connected]` and `[batchnorm]`.
extension Network {
    /// Reads the parameters of `layer` if it is a `[connected]` or `[batchnorm]` layer
    /// (`nil` for layers without parameters).
    static func readDenseParameters(_ reader: inout WeightsReader, layer: LayerPlan,
                                    transposed: Bool) throws(WeightsError) -> ConvolutionParameters? {
        switch layer.spec.kind {
        case .connected(let connected):
            return try ConvolutionParameters(readingConnected: &reader, spec: connected, inputs: layer.inputShape.count,
                                             transposed: transposed)
        case .batchnorm:
            return try ConvolutionParameters(readingBatchnorm: &reader, channels: layer.inputShape.channels)
        default:
            return nil
        }
    }

    /// Seeded random parameters for a `[connected]` or `[batchnorm]` layer (benchmarks).
    static func randomDenseParameters(layer: LayerPlan, generator: inout SplitMix64) -> ConvolutionParameters? {
        switch layer.spec.kind {
        case .connected(let connected):
            let inputs = layer.inputShape.count
            let bound = (3 / Float(inputs)).squareRoot()
            return ConvolutionParameters(
                weights: (0..<(connected.outputs * inputs)).map { _ in generator.nextFloat(in: -bound...bound) },
                biases: (0..<connected.outputs).map { _ in generator.nextFloat(in: -0.1...0.1) })
        case .batchnorm:
            let channels = layer.inputShape.channels
            return ConvolutionParameters(weights: (0..<channels).map { _ in generator.nextFloat(in: 0.5...1.5) },
                                         biases: (0..<channels).map { _ in generator.nextFloat(in: -0.1...0.1) })
        default:
            return nil
        }
    }
}
