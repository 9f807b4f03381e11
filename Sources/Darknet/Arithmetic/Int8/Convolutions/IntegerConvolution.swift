/// What an integer convolution's plan fixes: its input's quantization, the integer kernels it
/// runs and the limit its weights are quantized to.
package struct Int8LayerQuantization: Sendable, Equatable {
    package let input: Int8TensorQuantization
    /// The integer kernel set (`CPUFeatures.integerKernels`, or the one `PlanOptions` pins).
    package let variant: IntegerKernels
    /// The largest weight code (127, or 63 where the plan's CPU multiplies without a dot-product
    /// instruction and K is deep: `IntegerKernels.plannedWeightLimit`): the same whichever set a
    /// test pins, so all give the same answer.
    package var weightLimit: Int32 = 127
    /// For a convolution in 16-bit integers instead (`.int16Direct`): the largest magnitude of
    /// its calibrated input range. Nil for 8-bit.
    package var sixteenBitMagnitude: Float? = nil

    package init(input: Int8TensorQuantization, variant: IntegerKernels, weightLimit: Int32 = 127,
                 sixteenBitMagnitude: Float? = nil) {
        self.input = input
        self.variant = variant
        self.weightLimit = weightLimit
        self.sixteenBitMagnitude = sixteenBitMagnitude
    }

    /// Whether the convolution reads 8-bit codes (not 16-bit activations).
    package var isEightBit: Bool { sixteenBitMagnitude == nil }
}

/// An algorithm that computes in integers: its plan fixes the input's quantization.
package protocol IntegerConvolutionMethod: ConvolutionMethod {
    var quantization: Int8LayerQuantization { get }
}

extension IntegerKernelGeometry {
    /// The kernel for `candidate`'s convolution; traps when its output differs from the plan's.
    init(_ candidate: ConvolutionCandidate) {
        let conv = candidate.conv, input = candidate.input
        self.init(channels: input.channels, height: input.height, width: input.width, filters: conv.filters,
                  size: conv.size, padding: conv.padding, stride: conv.strideX)
        precondition(outputHeight == candidate.output.height && outputWidth == candidate.output.width,
                     "\(Self.self): output \(candidate.output) differs from the kernel's")
    }
}

extension ConvolutionCandidate {
    /// Whether the integer kernels compute this convolution: one group, no dilation, equal
    /// strides, an activation the epilogue fuses, and K (`channels * size²`) within the exact
    /// int32 bound.
    var integerKernelsCompute: Bool {
        conv.groups == 1 && conv.dilation == 1 && conv.strideX == conv.strideY && Int8Epilogue.fuses(conv.activation)
            && input.channels * conv.size * conv.size <= Int8GEMM.maximumDepth
    }
}

/// An 8-bit convolution's weights and epilogue, quantized and packed once at load, with its
/// input quantization and kernels (`Int8Im2colConvolution`, `Int8DirectConvolution`).
struct Int8Weights: Sendable {
    let packed: Int8PackedWeights
    let epilogue: Int8Epilogue
    let input: Int8TensorQuantization
    let kernels: IntegerKernels

    /// Quantizes and packs the folded float `weights` (`rows x depth`, in the kernel's k order)
    /// to `quantization.weightLimit`, for its input quantization, with `biases` and `activation`
    /// fused.
    init(weights: [Float], rows: Int, depth: Int, biases: [Float], activation: Activation,
         quantization: Int8LayerQuantization) {
        packed = Int8PackedWeights(weights: weights, rows: rows, depth: depth, limit: quantization.weightLimit)
        epilogue = Int8Epilogue(requantization: packed.requantization(input: quantization.input), bias: biases,
                                activation: activation)
        input = quantization.input
        kernels = quantization.variant
    }
}

extension ConvolutionBuffers {
    /// An integer kernel's input as 8-bit codes in `quantization`: the input itself when the int8
    /// convolution before wrote it so (`inputIsCodes`), else its `count` floats quantized into
    /// `codes`, split over threads.
    func int8InputCodes(_ quantization: Int8TensorQuantization, count: Int,
                        quantizingInto codes: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        if inputIsCodes { return UnsafeRawPointer(input).assumingMemoryBound(to: UInt8.self) }
        let input = input, kernels = kernels
        split((count + 4095) / 4096) { pieces, _ in
            let start = pieces.lowerBound * 4096, end = min(pieces.upperBound * 4096, count)
            quantization.quantize(input + start, count: end - start, into: codes + start, kernels: kernels)
        }
        return UnsafePointer(codes)
    }
}
