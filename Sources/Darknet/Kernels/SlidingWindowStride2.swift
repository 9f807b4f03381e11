import CDarknetKernels

/// Direct stride-2 convolution (YOLOv3's downsampling 3x3/2 layers), without im2col.
///
/// At stride 2 the window of neighbouring outputs is every other input column, which no vector
/// load reads. So each thread copies a band of input rows into its buffer with the even and odd
/// columns split apart; there a tap's inputs for a vector of outputs lie side by side, and the
/// same register-blocked kernel as `SlidingWindowConvolution` sums the window. The band is small
/// enough to stay in L2 while every filter runs over it, and the copy is paid once per band, not
/// once per filter.
package struct SlidingWindowStride2: ShapedConvolutionMethod {
    /// Band buffer bytes one thread aims at (L2 is 512 KB to 2 MB per core on current x86 parts).
    static let bandBytes = 384 << 10
    /// Largest weights (bytes) the planner takes this path for: every block of outputs reads all
    /// of them, from L2 at best. YOLOv3's 3x3/2 32 -> 64 (72 KB) and 64 -> 128 (288 KB) at 416 ran
    /// 10-20 % faster than im2col in bands; 128 -> 256 (1.2 MB) and up 30-60 % slower than the GEMM
    /// (darknet-microbench, one thread).
    static let weightLimit = 512 << 10

    package let shapes: ConvolutionShapes

    package init(shapes: ConvolutionShapes) { self.shapes = shapes }

    /// Whether the kernel computes this layer: stride 2 on both axes, no dilation, one group, a
    /// kernel the direct kernel takes.
    package static func computes(_ conv: ConvolutionalSpec) -> Bool {
        conv.strideX == 2 && conv.strideY == 2 && conv.dilation == 1 && conv.groups == 1
            && conv.size <= Int(SWIFTDARKNET_DIRECT_MAX_SIZE)
    }

    /// Whether the planner should take this path: one the kernel computes, with weights under
    /// `weightLimit`.
    package static func suits(_ conv: ConvolutionalSpec, inputChannels: Int) -> Bool {
        let weightBytes = Double(conv.filters) * Double(inputChannels * conv.size * conv.size) * Double(MemoryLayout<Float>.size)
        return computes(conv) && weightBytes <= Double(weightLimit)
    }

    /// Output rows per band: as many as fit `bandBytes`, at least one.
    var bandRows: Int {
        let rowBytes = inputShape.channels * 2 * swiftdarknet_stride2_half_width(outputShape.width, conv.size)
            * MemoryLayout<Float>.size
        let inputRows = Self.bandBytes / max(rowBytes, 1)
        return max(1, min(outputShape.height, (inputRows - conv.size) / 2 + 1))
    }

    /// Floats of one thread's band buffer.
    package var scratchCount: Int {
        swiftdarknet_stride2_band_floats(inputShape.channels, outputShape.width, conv.size, bandRows)
    }

    /// The convolution with bias and activation into `output`. Worker `w` uses the `scratchCount`
    /// floats at `scratch + w * scratchStride`; `split` spreads the output rows over the workers.
    package func run(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
                     output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, scratchStride: Int,
                     split: ThreadSplit) {
        let fused = SlidingWindowConvolution.fusedEpilogue(for: conv.activation)
        let rowsPerBand = bandRows
        split(outputShape.height, minimumPiece: rowsPerBand) { rows, worker in
            swiftdarknet_convolve_stride2(input, inputShape.channels, inputShape.height, inputShape.width, conv.padding,
                                          weights, biases, conv.filters, conv.size, output, outputShape.height,
                                          outputShape.width, rows.lowerBound, rows.upperBound, rowsPerBand,
                                          scratch + worker * scratchStride, fused ?? 0)
        }
        if fused == nil {
            split(conv.filters, minimumPiece: 4) { filters, _ in
                activate(output + filters.lowerBound * outputShape.planeSize,
                         count: filters.count * outputShape.planeSize, activation: conv.activation)
            }
        }
    }

    /// Each band lives in its thread's scratch.
    package var workspaceCount: Int { 0 }

    package func run(_ buffers: ConvolutionBuffers) {
        run(input: buffers.input, weights: buffers.weights, biases: buffers.biases, output: buffers.output,
            scratch: buffers.scratch, scratchStride: buffers.scratchStride, split: buffers.split)
    }

    package var weightCount: Int { conv.gemmWeightCount(inputChannels: inputShape.channels) }
}
