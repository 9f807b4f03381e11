import CDarknetKernels

/// `.int16Direct`: a stride-1 convolution with a window in 16-bit integers (`Int16Direct`), for
/// the early layers too sensitive for 8-bit activations (`Int8FloatLayers`,
/// `sixteenBitEarlyLayers`): the float input is quantized symmetrically with its calibrated
/// range as it is laid out in padded channel pairs, multiplied by the weights quantized per
/// filter at load with as many bits (about 12 for a 3x3 layer on 16 or 32 channels, so that
/// the int32 sums stay exact; vpdpwssd: half the int8 GEMM's rate, twice float's), and the
/// epilogue writes `activation(sum * scale + bias)` as float. The workspace holds the layout;
/// each thread's scratch, its panel.
package struct Int16DirectConvolution: ConvolutionMethod {
    let core: Int16Direct
    let activation: Activation
    let bound: Bound?

    /// The weights, epilogue and input quantization `bound(to:layer:)` fixes.
    struct Bound: Sendable {
        let weights: Int16PackedWeights
        let epilogue: Int8Epilogue
        let input: Int16Quantization
        let variant: Int8Variant
    }

    /// Whether the path computes `conv` from `input`: what the int8 kernels take (one group,
    /// no dilation, a fused activation) at stride 1 with a window, over whole pairs of input
    /// channels, outputs wide enough (`Int16Direct.suits`).
    package static func suits(_ conv: ConvolutionalSpec, input: TensorShape) -> Bool {
        conv.groups == 1 && conv.dilation == 1 && conv.strideX == conv.strideY && Int8Epilogue.fuses(conv.activation)
            && Int16Direct.suits(size: conv.size, stride: conv.strideX, padding: conv.padding, channels: input.channels,
                                 outputWidth: input.width + 2 * conv.padding - conv.size + 1)
    }

    package init(_ conv: ConvolutionalSpec, inputShape: TensorShape, outputShape: TensorShape) {
        core = Int16Direct(channels: inputShape.channels, height: inputShape.height, width: inputShape.width,
                           filters: conv.filters, size: conv.size, padding: conv.padding)
        precondition(core.outputHeight == outputShape.height && core.outputWidth == outputShape.width,
                     "Int16DirectConvolution: output \(outputShape) differs from the kernel's")
        activation = conv.activation
        bound = nil
    }

    private init(_ unbound: Int16DirectConvolution, bound: Bound) {
        core = unbound.core
        activation = unbound.activation
        self.bound = bound
    }

    package var workspaceCount: Int { (core.layoutBytes + 3) / 4 }
    package var scratchCount: Int { (core.panelBytes + 63) / 64 * 16 }
    /// The packed int16 weights (in floats, rounded up), their scales and row sums, and the
    /// epilogue's per-filter compensation and scale.
    package var weightCount: Int {
        (swiftdarknet_int8_packed_a_bytes(core.filters, 2 * core.depth) + 3) / 4 + 4 * core.filters
    }

    /// Reorders the folded float `parameters` to the path's k order, quantizes and packs them,
    /// with the layer's calibrated input range; the float weights are dropped (biases stay).
    package func bound(to parameters: ConvolutionParameters, layer: LayerPlan) -> (any ConvolutionMethod, ConvolutionParameters) {
        guard let int8 = layer.int8, let magnitude = int8.sixteenBitMagnitude else {
            preconditionFailure("Int16DirectConvolution: layer \(layer.index) has no 16-bit input range")
        }
        let weights = Int16PackedWeights(weights: core.reordered(parameters.weights), rows: core.filters, depth: core.depth)
        let input = Int16Quantization(magnitude: magnitude, limit: Int16Quantization.limit(depth: core.depth))
        let epilogue = Int8Epilogue(requantization: weights.requantization(input: input), bias: parameters.biases,
                                    activation: activation)
        let bound = Bound(weights: weights, epilogue: epilogue, input: input, variant: int8.variant)
        return (Int16DirectConvolution(self, bound: bound), ConvolutionParameters(weights: [], biases: parameters.biases))
    }

    package func run(_ buffers: ConvolutionBuffers) {
        guard let bound else { preconditionFailure("Int16DirectConvolution: run before its weights were bound") }
        let panels = UnsafeMutableRawPointer(buffers.scratch), panelStride = buffers.scratchStride * 4
        buffers.workspace.withMemoryRebound(to: UInt8.self, capacity: workspaceCount * 4) { layout in
            core.run(input: buffers.input, quantization: bound.input, weights: bound.weights, epilogue: bound.epilogue,
                     output: buffers.output, layout: layout, panels: panels, panelStride: panelStride,
                     split: buffers.split, variant: bound.variant)
        }
    }
}
