import CDarknetKernels

/// `.int8Im2col`: a convolution in int8 (`PlanOptions.precision` `.int8`). The float input is
/// quantized to 8-bit codes with its calibrated scale and zero point (`Int8TensorQuantization`),
/// im2col'd and packed in 8 bits (`Int8Convolution`), multiplied by the weights quantized at
/// load (symmetric int8 per filter, batch norm folded first) with exact int32 sums, and the
/// epilogue writes `activation(sum * scale + bias)` as float, or as 8-bit codes in the next int8
/// convolution's input quantization when it is the only reader (`ConvolutionBuffers.outputCodes`;
/// that reader then takes them as its input, `inputIsCodes`). The workspace holds the packed
/// column matrix and the input's codes. Every step splits over threads by independent pieces
/// (elements, quads of k, 16-column strips), so results do not depend on the thread count, nor
/// on the SIMD variant (`Int8Variant`).
///
/// The planner's copy (`ConvolutionAlgorithm.method(for:input:output:)`) only sizes memory; the
/// network's copy is `bound(to:layer:)` the layer's parameters and input quantization.
package struct Int8Im2colConvolution: ConvolutionMethod {
    let core: Int8Convolution
    let activation: Activation
    let inputCount: Int
    let bound: Int8Binding?

    /// Whether the int8 kernels compute `conv`: one group, no dilation, equal strides, a fused
    /// activation, and K (`channels * size²`) within the exact int32 bound.
    package static func suits(_ conv: ConvolutionalSpec, inputChannels: Int) -> Bool {
        conv.groups == 1 && conv.dilation == 1 && conv.strideX == conv.strideY && Int8Epilogue.fuses(conv.activation)
            && inputChannels * conv.size * conv.size <= Int8GEMM.maximumDepth
    }

    package init(_ conv: ConvolutionalSpec, inputShape: TensorShape, outputShape: TensorShape) {
        core = Int8Convolution(channels: inputShape.channels, height: inputShape.height, width: inputShape.width,
                               filters: conv.filters, size: conv.size, stride: conv.strideX, padding: conv.padding)
        precondition(core.outputHeight == outputShape.height && core.outputWidth == outputShape.width,
                     "Int8Im2colConvolution: output \(outputShape) differs from the kernel's")
        activation = conv.activation
        inputCount = inputShape.count
        bound = nil
    }

    private init(_ unbound: Int8Im2colConvolution, bound: Int8Binding) {
        core = unbound.core
        activation = unbound.activation
        inputCount = unbound.inputCount
        self.bound = bound
    }

    /// Bytes of packed B, rounded up to a cache line; the input's codes follow.
    private var packedBytes: Int { (core.workspaceBytes + 63) / 64 * 64 }

    package var workspaceCount: Int { (packedBytes + inputCount + 3) / 4 }
    package var scratchCount: Int { 0 }
    /// The packed int8 weights (in floats, rounded up), their scales and row sums, and the
    /// epilogue's per-filter compensation and scale.
    package var weightCount: Int {
        (swiftdarknet_int8_packed_a_bytes(core.filters, core.depth) + 3) / 4 + 4 * core.filters
    }

    /// Quantizes the folded float `parameters` (row-major `filters x depth`) and keeps them
    /// with the layer's input quantization; the float weights are dropped (biases stay, float).
    package func bound(to parameters: ConvolutionParameters, layer: LayerPlan) -> (any ConvolutionMethod, ConvolutionParameters) {
        let bound = Int8Binding(weights: parameters.weights, rows: core.filters, depth: core.depth,
                                biases: parameters.biases, activation: activation, layer: layer)
        return (Int8Im2colConvolution(self, bound: bound), ConvolutionParameters(weights: [], biases: parameters.biases))
    }

    package func run(_ buffers: ConvolutionBuffers) {
        guard let bound else { preconditionFailure("Int8Im2colConvolution: run before its weights were bound") }
        let packedBytes = packedBytes, inputCount = inputCount
        buffers.workspace.withMemoryRebound(to: UInt8.self, capacity: workspaceCount * 4) { workspace in
            let codes = buffers.int8InputCodes(bound.input, count: inputCount, quantizingInto: workspace + packedBytes)
            if let outputCodes = buffers.outputCodes {
                let output = UnsafeMutableRawPointer(buffers.output).assumingMemoryBound(to: UInt8.self)
                core.run(input: codes, quantization: bound.input, weights: bound.weights, epilogue: bound.epilogue,
                         output: output, outputQuantization: outputCodes, workspace: workspace, split: buffers.split,
                         variant: bound.variant)
            } else {
                core.run(input: codes, quantization: bound.input, weights: bound.weights, epilogue: bound.epilogue,
                         output: buffers.output, workspace: workspace, split: buffers.split, variant: bound.variant)
            }
        }
    }
}

/// What an int8 convolution's plan fixes: its input's quantization and the GEMM variant.
package struct Int8LayerQuantization: Sendable, Equatable {
    package let input: Int8TensorQuantization
    package let variant: Int8Variant
    /// For a convolution in 16-bit integers instead (`.int16Direct`): the largest magnitude of
    /// its calibrated input range. Nil for 8-bit.
    package var sixteenBitMagnitude: Float? = nil

    /// Whether the convolution reads 8-bit codes (not 16-bit activations).
    package var isEightBit: Bool { sixteenBitMagnitude == nil }
}
