import CDarknetKernels

/// `.int8Direct`: a stride-1 convolution with a window (3x3 and the like) in int8 without
/// im2col (`Int8Direct`): the input's codes (quantized here from floats, or written by the int8
/// convolution before it) are laid out once in padded channel quads, and each GEMM panel is
/// copied from that layout. Same weights, input quantization, epilogue, 8-bit outputs and
/// results as `.int8Im2col`, bit for bit; without the 9x im2col copy of the input. The
/// workspace holds the layout and the input's codes; each thread's scratch, its panel.
package struct Int8DirectConvolution: ConvolutionMethod {
    let core: Int8Direct
    let activation: Activation
    let inputCount: Int
    let bound: Int8Binding?

    /// Whether the direct path computes `conv` from `input`: what the int8 kernels take, at
    /// stride 1 with a window, over whole quads of input channels, outputs wide enough
    /// (`Int8Direct.suits`).
    package static func suits(_ conv: ConvolutionalSpec, input: TensorShape) -> Bool {
        Int8Im2colConvolution.suits(conv, inputChannels: input.channels)
            && Int8Direct.suits(size: conv.size, stride: conv.strideX, padding: conv.padding, channels: input.channels,
                                outputWidth: input.width + 2 * conv.padding - conv.size + 1)
    }

    package init(_ conv: ConvolutionalSpec, inputShape: TensorShape, outputShape: TensorShape) {
        core = Int8Direct(channels: inputShape.channels, height: inputShape.height, width: inputShape.width,
                          filters: conv.filters, size: conv.size, padding: conv.padding)
        precondition(core.outputHeight == outputShape.height && core.outputWidth == outputShape.width,
                     "Int8DirectConvolution: output \(outputShape) differs from the kernel's")
        activation = conv.activation
        inputCount = inputShape.count
        bound = nil
    }

    private init(_ unbound: Int8DirectConvolution, bound: Int8Binding) {
        core = unbound.core
        activation = unbound.activation
        inputCount = unbound.inputCount
        self.bound = bound
    }

    /// Bytes of the layout, rounded up to a cache line; the input's codes follow.
    private var layoutBytes: Int { (core.layoutBytes + 63) / 64 * 64 }

    package var workspaceCount: Int { (layoutBytes + inputCount + 3) / 4 }
    package var scratchCount: Int { (core.panelBytes + 63) / 64 * 16 }
    package var weightCount: Int {
        (swiftdarknet_int8_packed_a_bytes(core.filters, core.depth) + 3) / 4 + 4 * core.filters
    }

    /// Reorders the folded float `parameters` to the direct path's k order, quantizes and packs
    /// them with the layer's input quantization; the float weights are dropped (biases stay).
    package func bound(to parameters: ConvolutionParameters, layer: LayerPlan) -> (any ConvolutionMethod, ConvolutionParameters) {
        let bound = Int8Binding(weights: core.reordered(parameters.weights), rows: core.filters, depth: core.depth,
                                biases: parameters.biases, activation: activation, layer: layer)
        return (Int8DirectConvolution(self, bound: bound), ConvolutionParameters(weights: [], biases: parameters.biases))
    }

    package func run(_ buffers: ConvolutionBuffers) {
        guard let bound else { preconditionFailure("Int8DirectConvolution: run before its weights were bound") }
        let layoutBytes = layoutBytes, inputCount = inputCount
        let panels = UnsafeMutableRawPointer(buffers.scratch), panelStride = buffers.scratchStride * 4
        buffers.workspace.withMemoryRebound(to: UInt8.self, capacity: workspaceCount * 4) { workspace in
            let codes = buffers.int8InputCodes(bound.input, count: inputCount, quantizingInto: workspace + layoutBytes)
            if let outputCodes = buffers.outputCodes {
                let output = UnsafeMutableRawPointer(buffers.output).assumingMemoryBound(to: UInt8.self)
                core.run(input: codes, quantization: bound.input, weights: bound.weights, epilogue: bound.epilogue,
                         output: output, outputQuantization: outputCodes, layout: workspace, panels: panels,
                         panelStride: panelStride, split: buffers.split, variant: bound.variant)
            } else {
                core.run(input: codes, quantization: bound.input, weights: bound.weights, epilogue: bound.epilogue,
                         output: buffers.output, layout: workspace, panels: panels, panelStride: panelStride,
                         split: buffers.split, variant: bound.variant)
            }
        }
    }
}
