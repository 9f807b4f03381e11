import CDarknetKernels

extension ConvolutionAlgorithm {
    /// int8 im2col + GEMM (`Int8Im2colConvolution`): the input quantized to 8 bits with its
    /// calibrated scale, weights quantized per filter at load, float output. Chosen only with
    /// `PlanOptions.precision` `.int8`, for the convolutions it calibrates and keeps in int8.
    public static let int8Im2col = ConvolutionAlgorithm("int8 im2col", arithmetic: .int8)
}

/// `.int8Im2col`: a convolution in int8 (`PlanOptions.precision` `.int8`). The float input is
/// quantized to 8-bit codes with its calibrated scale and zero point (`Int8TensorQuantization`),
/// im2col'd and packed in 8 bits (`Int8Convolution`), multiplied by the weights quantized at
/// load (symmetric int8 per filter, batch norm folded first) with exact int32 sums, and the
/// epilogue writes `activation(sum * scale + bias)` as float, or as 8-bit codes in the next int8
/// convolution's input quantization when it is the only reader (`ConvolutionBuffers.outputCodes`;
/// that reader then takes them as its input, `inputIsCodes`). The workspace holds the packed
/// column matrix and the input's codes. Every step splits over threads by independent pieces
/// (elements, quads of k, 16-column strips), so results do not depend on the thread count, nor
/// on the integer kernel set.
package struct Int8Im2colConvolution: IntegerConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .int8Im2col }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        candidate.eightBit && candidate.integerKernelsCompute
    }

    let core: Int8Convolution
    let activation: Activation
    let inputCount: Int
    package let quantization: Int8LayerQuantization

    package init(_ candidate: ConvolutionCandidate) {
        core = Int8Convolution(candidate)
        activation = candidate.conv.activation
        inputCount = candidate.input.count
        quantization = candidate.integer!
    }

    /// Bytes of packed B, rounded up to a cache line; the input's codes follow.
    private var packedBytes: Int { (core.workspaceBytes + 63) / 64 * 64 }

    package var workspaceCount: Int { (packedBytes + inputCount + 3) / 4 }
    package var scratchCount: Int { 0 }
    package var weightCount: Int { Int8PackedWeights.plannedFloats(rows: core.filters, depthBytes: core.depth) }

    /// Quantizes the folded float weights (row-major `filters x depth`) with the layer's input
    /// quantization; only the biases stay float.
    package func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel {
        let (weights, biases) = try source.folded()
        return Kernel(plan: self, weights: Int8Weights(weights: weights, rows: core.filters, depth: core.depth,
                                                      biases: biases, activation: activation, quantization: quantization),
                      biases: biases)
    }

    struct Kernel: ConvolutionKernel {
        let plan: Int8Im2colConvolution
        let weights: Int8Weights
        let biases: [Float]

        var parameterArrays: [[Float]] { [[], biases] }

        func run(_ buffers: ConvolutionBuffers) {
            let packedBytes = plan.packedBytes, inputCount = plan.inputCount, core = plan.core, weights = weights
            buffers.workspace.withMemoryRebound(to: UInt8.self, capacity: plan.workspaceCount * 4) { workspace in
                let codes = buffers.int8InputCodes(weights.input, count: inputCount, quantizingInto: workspace + packedBytes)
                if let outputCodes = buffers.outputCodes {
                    let output = UnsafeMutableRawPointer(buffers.output).assumingMemoryBound(to: UInt8.self)
                    core.run(input: codes, quantization: weights.input, weights: weights.packed, epilogue: weights.epilogue,
                             output: output, outputQuantization: outputCodes, workspace: workspace, split: buffers.split,
                             kernels: weights.kernels)
                } else {
                    core.run(input: codes, quantization: weights.input, weights: weights.packed, epilogue: weights.epilogue,
                             output: buffers.output, workspace: workspace, split: buffers.split, kernels: weights.kernels)
                }
            }
        }
    }
}
