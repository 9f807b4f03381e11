/// What one layer's int8 convolution (`Int8Im2colConvolution`, `Int8DirectConvolution`) needs
/// besides its geometry, made once at load.
struct Int8Binding: Sendable {
    let weights: Int8PackedWeights
    let epilogue: Int8Epilogue
    let input: Int8TensorQuantization
    let variant: Int8Variant

    /// Quantizes and packs the folded float `weights` (`rows x depth`, in the method's k
    /// order) to the limit this CPU's plans use at its depth (`Int8Variant.plannedWeightLimit`:
    /// 7 bits for deep layers without VNNI), for `layer`'s input quantization, with `biases`
    /// and `activation` fused.
    init(weights: [Float], rows: Int, depth: Int, biases: [Float], activation: Activation, layer: LayerPlan) {
        guard let int8 = layer.int8 else { preconditionFailure("int8 convolution: layer \(layer.index) has no int8 input quantization") }
        self.weights = Int8PackedWeights(weights: weights, rows: rows, depth: depth, limit: Int8Variant.plannedWeightLimit(depth: depth))
        epilogue = Int8Epilogue(requantization: self.weights.requantization(input: int8.input), bias: biases,
                                activation: activation)
        input = int8.input
        variant = int8.variant
    }
}

extension ConvolutionBuffers {
    /// An int8 method's input as 8-bit codes in `quantization`: the input itself when the int8
    /// convolution before wrote it so (`inputIsCodes`), else its `count` floats quantized into
    /// `codes`, split over threads.
    func int8InputCodes(_ quantization: Int8TensorQuantization, count: Int,
                        quantizingInto codes: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        if inputIsCodes { return UnsafeRawPointer(input).assumingMemoryBound(to: UInt8.self) }
        let input = input
        split((count + 4095) / 4096) { pieces, _ in
            let start = pieces.lowerBound * 4096, end = min(pieces.upperBound * 4096, count)
            quantization.quantize(input + start, count: end - start, into: codes + start)
        }
        return UnsafePointer(codes)
    }
}
