import CDarknetKernels

extension ConvolutionAlgorithm {
    /// int8 at stride 1 with a window or at stride 2, without im2col (`Int8DirectConvolution`):
    /// the input's codes laid out once in padded channel quads, each GEMM panel gathered from
    /// them. The same results as `.int8Im2col`; chosen instead of it where it applies (whole quads
    /// of input channels: `Int8Direct.computes`).
    public static let int8Direct = ConvolutionAlgorithm("int8 direct", arithmetic: .int8)
}

/// `.int8Direct`: a stride-1 convolution with a window (3x3 and the like) or a stride-2 one in int8 without
/// im2col (`Int8Direct`): the input's codes (quantized here from floats, or written by the int8
/// convolution before it) are laid out once in padded channel quads, and each GEMM panel is
/// copied from that layout. Same weights, input quantization, epilogue, 8-bit outputs and
/// results as `.int8Im2col`, bit for bit; without the 9x im2col copy of the input. The
/// workspace holds the layout and the input's codes; each thread's scratch, its panel.
package struct Int8DirectConvolution: IntegerConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .int8Direct }

    /// What the int8 kernels take, at stride 1 with a window or at stride 2, over whole quads of
    /// input channels.
    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        let conv = candidate.conv
        return candidate.eightBit && candidate.integerKernelsCompute && conv.strideX == conv.strideY
            && Int8Direct.computes(size: conv.size, stride: conv.strideX, padding: conv.padding,
                                   channels: candidate.input.channels)
    }

    let core: Int8Direct
    let activation: Activation
    let inputCount: Int
    package let quantization: Int8LayerQuantization

    package init(_ candidate: ConvolutionCandidate) {
        core = Int8Direct(candidate)
        activation = candidate.conv.activation
        inputCount = candidate.input.count
        quantization = candidate.integer!
    }

    /// Bytes of the layout, rounded up to a cache line; the input's codes follow.
    private var layoutBytes: Int { (core.layoutBytes + 63) / 64 * 64 }

    package var workspaceCount: Int { (layoutBytes + inputCount + 3) / 4 }
    package var scratchCount: Int { (core.panelBytes + 63) / 64 * 16 }
    package var weightCount: Int { Int8PackedWeights.plannedFloats(rows: core.filters, depthBytes: core.depth) }

    /// Reorders the folded float weights to the direct path's k order, quantizes and packs them
    /// with the layer's input quantization; only the biases stay float.
    package func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel {
        var (weights, biases) = try source.folded()
        core.reorder(&weights)
        return Kernel(plan: self, weights: Int8Weights(weights: weights, rows: core.filters,
                                                      depth: core.depth, biases: biases, activation: activation,
                                                      quantization: quantization),
                      biases: biases)
    }

    struct Kernel: ConvolutionKernel {
        let plan: Int8DirectConvolution
        let weights: Int8Weights
        let biases: [Float]

        var parameterArrays: [[Float]] { [[], biases] }

        func run(_ buffers: ConvolutionBuffers) {
            let layoutBytes = plan.layoutBytes, inputCount = plan.inputCount, core = plan.core, weights = weights
            let panels = UnsafeMutableRawPointer(buffers.scratch), panelStride = buffers.scratchStride * 4
            buffers.workspace.withMemoryRebound(to: UInt8.self, capacity: plan.workspaceCount * 4) { workspace in
                let codes = buffers.int8InputCodes(weights.input, count: inputCount, quantizingInto: workspace + layoutBytes)
                if let outputCodes = buffers.outputCodes {
                    let output = UnsafeMutableRawPointer(buffers.output).assumingMemoryBound(to: UInt8.self)
                    core.run(input: codes, quantization: weights.input, weights: weights.packed, epilogue: weights.epilogue,
                             output: output, outputQuantization: outputCodes, layout: workspace, panels: panels,
                             panelStride: panelStride, split: buffers.split, kernels: weights.kernels)
                } else {
                    core.run(input: codes, quantization: weights.input, weights: weights.packed, epilogue: weights.epilogue,
                             output: buffers.output, layout: workspace, panels: panels, panelStride: panelStride,
                             split: buffers.split, kernels: weights.kernels)
                }
            }
        }
    }
}
