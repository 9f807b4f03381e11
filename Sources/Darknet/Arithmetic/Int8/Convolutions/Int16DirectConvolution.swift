import CDarknetKernels

extension ConvolutionAlgorithm {
    /// 16-bit integers at stride 1 with a window (`Int16DirectConvolution`): the direct int8
    /// path with int16 input codes, quantized symmetrically from the float input with its
    /// calibrated range, and int16 weights. For the early convolutions `Int8FloatLayers` keeps
    /// from 8-bit activations (`sixteenBitEarlyLayers`): near float's accuracy at twice float's
    /// multiply rate.
    public static let int16Direct = ConvolutionAlgorithm("int16 direct", arithmetic: .int16)
}

/// `.int16Direct`: a stride-1 convolution with a window in 16-bit integers (`Int16Direct`), for
/// the early layers too sensitive for 8-bit activations (`Int8FloatLayers`,
/// `sixteenBitEarlyLayers`): the float input is quantized symmetrically with its calibrated
/// range as it is laid out in padded channel pairs, multiplied by the weights quantized per
/// filter at load with as many bits (about 12 for a 3x3 layer on 16 or 32 channels, so that
/// the int32 sums stay exact; vpdpwssd: half the int8 GEMM's rate, twice float's), and the
/// epilogue writes `activation(sum * scale + bias)` as float. The workspace holds the layout;
/// each thread's scratch, its panel.
package struct Int16DirectConvolution: IntegerConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .int16Direct }

    /// What the integer kernels take at stride 1 with a window or at stride 2, over whole pairs
    /// of input channels (`Int16Direct.suits`).
    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        let conv = candidate.conv, input = candidate.input
        return candidate.sixteenBit && candidate.integerKernelsCompute && conv.strideX == conv.strideY
            && Int16Direct.suits(size: conv.size, stride: conv.strideX, padding: conv.padding, channels: input.channels)
    }

    let core: Int16Direct
    let activation: Activation
    package let quantization: Int8LayerQuantization

    package init(_ candidate: ConvolutionCandidate) {
        core = Int16Direct(candidate)
        activation = candidate.conv.activation
        quantization = candidate.integer!
    }

    package var workspaceCount: Int { (core.layoutBytes + 3) / 4 }
    package var scratchCount: Int { (core.panelBytes + 63) / 64 * 16 }
    package var weightCount: Int { Int8PackedWeights.plannedFloats(rows: core.filters, depthBytes: 2 * core.depth) }

    /// Reorders the folded float weights to the path's k order, quantizes and packs them, with
    /// the layer's calibrated input range; only the biases stay float.
    package func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel {
        var (weights, biases) = try source.folded()
        core.reorder(&weights)
        let packed = Int16PackedWeights(weights: weights, rows: core.filters, depth: core.depth)
        let input = Int16Quantization(magnitude: quantization.sixteenBitMagnitude ?? 0,
                                      limit: Int16Quantization.limit(depth: core.depth))
        let epilogue = Int8Epilogue(requantization: packed.requantization(input: input), bias: biases, activation: activation)
        return Kernel(plan: self, weights: packed, epilogue: epilogue, input: input, biases: biases)
    }

    struct Kernel: ConvolutionKernel {
        let plan: Int16DirectConvolution
        let weights: Int16PackedWeights
        let epilogue: Int8Epilogue
        let input: Int16Quantization
        let biases: [Float]

        var parameterArrays: [[Float]] { [[], biases] }

        func run(_ buffers: ConvolutionBuffers) {
            let panels = UnsafeMutableRawPointer(buffers.scratch), panelStride = buffers.scratchStride * 4
            buffers.workspace.withMemoryRebound(to: UInt8.self, capacity: plan.workspaceCount * 4) { layout in
                plan.core.run(input: buffers.input, quantization: input, weights: weights, epilogue: epilogue,
                              output: buffers.output, layout: layout, panels: panels, panelStride: panelStride,
                              split: buffers.split, kernels: plan.quantization.variant, vectorKernels: buffers.kernels)
            }
        }
    }
}
