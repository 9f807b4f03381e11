import CDarknetKernels

extension ConvolutionAlgorithm {
    /// Each output summed over its window in SIMD registers from a zero-padded copy of the
    /// input (stride 1, 1 group, few input channels): no im2col copy, no thin GEMM.
    public static let slidingWindow = ConvolutionAlgorithm("sliding window")
}

/// `.slidingWindow`: direct stride-1 convolution for layers with few input channels (Darknet's
/// first layers), where im2col would copy the input `size²` times only to feed a GEMM too thin
/// to run fast.
///
/// The input is first copied into zero-padded planes (the workspace); the C kernel then keeps a
/// block of filters x output columns in SIMD registers while it walks the window. With
/// `ConvolutionBuffers.pooled` (the plan fuses the max pool after it, `canPool`), it also pools.
package struct SlidingWindowConvolution: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .slidingWindow }

    /// Stride 1 on both axes, no dilation, one group, a kernel the direct kernel takes.
    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        let conv = candidate.conv
        return candidate.shapes.isUnitStride && conv.dilation == 1 && conv.groups == 1
            && conv.size <= Int(SWIFTDARKNET_DIRECT_MAX_SIZE)
    }

    let shapes: ConvolutionShapes

    package init(_ candidate: ConvolutionCandidate) { shapes = candidate.shapes }

    private var conv: ConvolutionalSpec { shapes.conv }

    /// The zero-padded input planes (`Int.max` if the count overflows).
    package var workspaceCount: Int {
        saturatingProduct(shapes.input.channels, shapes.input.height + 2 * conv.padding,
                          Self.paddedWidth(outputWidth: shapes.output.width, size: conv.size))
    }

    package var scratchCount: Int { 0 }
    package var weightCount: Int { conv.gemmWeightCount(inputChannels: shapes.input.channels) }

    /// Floats per padded row for an output `outputWidth` wide.
    package static func paddedWidth(outputWidth: Int, size: Int) -> Int {
        swiftdarknet_direct_padded_width(outputWidth, size)
    }

    /// The epilogue the C kernels fuse for `activation`, if any (others are applied afterwards).
    package static func fusedEpilogue(for activation: Activation) -> Int32? {
        switch activation {
        case .linear: Int32(SWIFTDARKNET_EPILOGUE_BIAS)
        case .leaky: Int32(SWIFTDARKNET_EPILOGUE_BIAS_LEAKY)
        case .relu: Int32(SWIFTDARKNET_EPILOGUE_BIAS_RELU)
        default: nil
        }
    }

    /// Whether a `[maxpool]` right after a convolution on this path can be computed by it: a
    /// 2x2/2 window starting at the first row and column, over an even output, after an
    /// activation the kernel fuses (pooling first would be wrong for others).
    package static func canPool(_ pool: MaxpoolSpec, after conv: ConvolutionalSpec, output: TensorShape,
                                pooled: TensorShape) -> Bool {
        pool.size == 2 && pool.strideX == 2 && pool.strideY == 2 && pool.padding / 2 == 0
            && fusedEpilogue(for: conv.activation) != nil && output.height % 2 == 0 && output.width % 2 == 0
            && pooled == TensorShape(channels: output.channels, height: output.height / 2, width: output.width / 2)
    }


    /// Threads split the padding by channel and the convolution by output rows. Bias (and leaky /
    /// ReLU) are applied by the kernel itself; with `buffers.pooled`, the max pool after it too.
    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let conv = shapes.conv, input = shapes.input, output = shapes.output
        let workspace = buffers.workspace, functions = buffers.kernels.functions
        let paddedHeight = input.height + 2 * conv.padding
        let paddedWidth = Self.paddedWidth(outputWidth: output.width, size: conv.size)
        buffers.split(input.channels) { channels, _ in
            swiftdarknet_pad_planes(buffers.input, channels.lowerBound, channels.count, input.height, input.width,
                                    conv.padding, workspace, paddedHeight, paddedWidth)
        }
        let fused = Self.fusedEpilogue(for: conv.activation)
        if let pooled = buffers.pooled, let fused {  // the plan fuses a pool only after a fused activation
            buffers.split(output.height / 2) { rows, _ in
                functions.pointee.convolve_direct_maxpool2(
                    workspace, input.channels, paddedHeight, paddedWidth, weights, biases, conv.filters, conv.size, pooled,
                    output.height, output.width, rows.lowerBound, rows.upperBound, fused)
            }
            return
        }
        buffers.split(output.height) { rows, _ in
            functions.pointee.convolve_direct(
                workspace, input.channels, paddedHeight, paddedWidth, weights, biases, conv.filters, conv.size,
                buffers.output, output.height, output.width, rows.lowerBound, rows.upperBound, fused ?? 0)
        }
        if fused == nil {
            buffers.activate(filters: conv.filters, planeSize: output.planeSize, activation: conv.activation)
        }
    }
}
