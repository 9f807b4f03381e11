import CDarknetKernels

/// Direct stride-1 convolution for layers with few input channels (Darknet's first layers),
/// where im2col would copy the input `size²` times only to feed a GEMM too thin to run fast.
///
/// The input is first copied into zero-padded planes (the workspace); the C kernel then keeps a
/// block of filters x output columns in SIMD registers while it walks the window.
package struct SlidingWindowConvolution: ShapedConvolutionMethod {
    package let shapes: ConvolutionShapes

    package init(shapes: ConvolutionShapes) { self.shapes = shapes }

    /// The zero-padded input planes (`Int.max` if the count overflows).
    package var workspaceCount: Int {
        saturatingProduct(inputShape.channels, inputShape.height + 2 * conv.padding,
                          Self.paddedWidth(outputWidth: outputShape.width, size: conv.size))
    }

    package var scratchCount: Int { 0 }

    package var weightCount: Int { conv.gemmWeightCount(inputChannels: inputShape.channels) }

    /// Threads split the padding by channel and the convolution by output rows. Bias (and leaky /
    /// ReLU) are applied by the kernel itself. With `buffers.pooled`, the next layer's 2x2/2 max
    /// pooling is applied in the same pass and only its output written there.
    package func run(_ buffers: ConvolutionBuffers) {
        let split = buffers.split, workspace = buffers.workspace, output = buffers.output
        split(inputShape.channels) { channels, _ in
            Self.pad(buffers.input, channels: channels, height: inputShape.height, width: inputShape.width,
                     padding: conv.padding, into: workspace, outputWidth: outputShape.width, size: conv.size)
        }
        let fused = Self.fusedEpilogue(for: conv.activation)
        let paddedHeight = inputShape.height + 2 * conv.padding
        if let pooled = buffers.pooled, let fused {  // the plan fuses a pool only after a fused activation
            split(outputShape.height / 2) { rows, _ in
                Self.convolvePooled(padded: workspace, channels: inputShape.channels, paddedHeight: paddedHeight,
                                    size: conv.size, weights: buffers.weights, biases: buffers.biases, filters: conv.filters,
                                    into: pooled, outputHeight: outputShape.height, outputWidth: outputShape.width,
                                    rows: rows, epilogue: fused)
            }
            return
        }
        split(outputShape.height) { rows, _ in
            Self.convolve(padded: workspace, channels: inputShape.channels, paddedHeight: paddedHeight, size: conv.size,
                          weights: buffers.weights, biases: buffers.biases, filters: conv.filters, into: output,
                          outputHeight: outputShape.height, outputWidth: outputShape.width, rows: rows, epilogue: fused ?? 0)
        }
        if fused == nil {
            let planeSize = outputShape.planeSize
            split(conv.filters, minimumPiece: 4) { filters, _ in
                activate(output + filters.lowerBound * planeSize, count: filters.count * planeSize,
                         activation: conv.activation)
            }
        }
    }

    /// Whether the planner should take this path: stride 1 on both axes, no dilation, one group,
    /// and at most 16 input channels (measured on YOLOv3-tiny: 3 and 16 channels run 2-4x faster
    /// than im2col + sgemm; from 32 channels on, Winograd or the GEMM win).
    package static func suits(_ conv: ConvolutionalSpec, inputChannels: Int) -> Bool {
        conv.strideX == 1 && conv.strideY == 1 && conv.dilation == 1 && conv.groups == 1 && inputChannels <= 16 && conv.size <= 7
    }

    /// Floats per padded row for an output `outputWidth` wide.
    package static func paddedWidth(outputWidth: Int, size: Int) -> Int {
        swiftdarknet_direct_padded_width(outputWidth, size)
    }

    /// The epilogue the kernel fuses for `activation`, if any (others are applied afterwards).
    package static func fusedEpilogue(for activation: Activation) -> Int32? {
        switch activation {
        case .linear: Int32(SWIFTDARKNET_EPILOGUE_BIAS)
        case .leaky: Int32(SWIFTDARKNET_EPILOGUE_BIAS_LEAKY)
        case .relu: Int32(SWIFTDARKNET_EPILOGUE_BIAS_RELU)
        default: nil
        }
    }

    /// Copies `channels` of `input` into the padded planes at `padded`.
    @inline(__always)
    package static func pad(_ input: UnsafePointer<Float>, channels: Range<Int>, height: Int, width: Int, padding: Int,
                            into padded: UnsafeMutablePointer<Float>, outputWidth: Int, size: Int) {
        swiftdarknet_pad_planes(input, channels.lowerBound, channels.count, height, width, padding,
                                padded, height + 2 * padding, paddedWidth(outputWidth: outputWidth, size: size))
    }

    /// Whether a `[maxpool]` right after a convolution on this path can be computed by it
    /// (`convolvePooled`): a 2x2/2 window starting at the first row and column, over an even
    /// output, after an activation the kernel fuses (pooling first would be wrong for others).
    package static func canPool(_ pool: MaxpoolSpec, after conv: ConvolutionalSpec, output: TensorShape,
                                pooled: TensorShape) -> Bool {
        pool.size == 2 && pool.strideX == 2 && pool.strideY == 2 && pool.padding / 2 == 0
            && fusedEpilogue(for: conv.activation) != nil && output.height % 2 == 0 && output.width % 2 == 0
            && pooled == TensorShape(channels: output.channels, height: output.height / 2, width: output.width / 2)
    }

    /// Pooled rows `rows` of the convolution followed by 2x2/2 max pooling, into `pooled`
    /// (every filter): each pair of the convolution's rows is pooled from a small buffer on the
    /// stack, and only the maxima are stored.
    @inline(__always)
    package static func convolvePooled(padded: UnsafePointer<Float>, channels: Int, paddedHeight: Int, size: Int,
                                       weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, filters: Int,
                                       into pooled: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int,
                                       rows: Range<Int>, epilogue: Int32) {
        swiftdarknet_convolve_direct_maxpool2(padded, channels, paddedHeight,
                                              paddedWidth(outputWidth: outputWidth, size: size), weights, biases,
                                              filters, size, pooled, outputHeight, outputWidth, rows.lowerBound,
                                              rows.upperBound, epilogue)
    }

    /// Output rows `rows` for every filter: bias added, and `epilogue` applied.
    @inline(__always)
    package static func convolve(padded: UnsafePointer<Float>, channels: Int, paddedHeight: Int, size: Int,
                                 weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, filters: Int,
                                 into output: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int,
                                 rows: Range<Int>, epilogue: Int32) {
        swiftdarknet_convolve_direct(padded, channels, paddedHeight, paddedWidth(outputWidth: outputWidth, size: size),
                                     weights, biases, filters, size, output, outputHeight, outputWidth,
                                     rows.lowerBound, rows.upperBound, epilogue)
    }
}
