import CDarknetKernels

extension ConvolutionAlgorithm {
    /// The sliding window at stride 2 (see `SlidingWindowStride2`): each thread splits a band of
    /// input rows into even and odd columns in a buffer that stays in cache, so a vector of outputs
    /// reads adjacent values.
    public static let slidingWindowStride2 = ConvolutionAlgorithm("sliding window /2")
}

/// `.slidingWindowStride2`: direct stride-2 convolution (YOLOv3's downsampling 3x3/2 layers),
/// without im2col.
///
/// At stride 2 the window of neighbouring outputs is every other input column, which no vector
/// load reads. So each thread copies a band of input rows into its buffer with the even and odd
/// columns split apart; there a tap's inputs for a vector of outputs lie side by side, and the
/// same register-blocked kernel as `SlidingWindowConvolution` sums the window. The band is small
/// enough to stay in L2 while every filter runs over it, and the copy is paid once per band, not
/// once per filter.
package struct SlidingWindowStride2: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .slidingWindowStride2 }

    /// Band buffer bytes one thread aims at (L2 is 512 KB to 2 MB per core on current x86 parts).
    static let bandBytes = 384 << 10
    /// Largest weights (bytes) the planner takes this path for: every block of outputs reads all
    /// of them, from L2 at best. YOLOv3's 3x3/2 32 -> 64 (72 KB) and 64 -> 128 (288 KB) at 416 ran
    /// 10-20 % faster than im2col in bands; 128 -> 256 (1.2 MB) and up 30-60 % slower than the GEMM
    /// (darknet-microbench, one thread).
    static let weightLimit = 512 << 10

    /// Stride 2 on both axes, no dilation, one group, a kernel the direct kernel takes.
    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        let conv = candidate.conv
        return conv.strideX == 2 && conv.strideY == 2 && conv.dilation == 1 && conv.groups == 1
            && conv.size <= Int(SWIFTDARKNET_DIRECT_MAX_SIZE)
    }

    let shapes: ConvolutionShapes

    package init(_ candidate: ConvolutionCandidate) { shapes = candidate.shapes }

    private var conv: ConvolutionalSpec { shapes.conv }

    /// Output rows per band: as many as fit `bandBytes`, at least one.
    var bandRows: Int {
        let rowBytes = shapes.input.channels * 2 * swiftdarknet_stride2_half_width(shapes.output.width, conv.size)
            * MemoryLayout<Float>.size
        let inputRows = Self.bandBytes / max(rowBytes, 1)
        return max(1, min(shapes.output.height, (inputRows - conv.size) / 2 + 1))
    }

    /// Each band lives in its thread's scratch.
    package var workspaceCount: Int { 0 }
    /// One thread's band buffer.
    package var scratchCount: Int {
        swiftdarknet_stride2_band_floats(shapes.input.channels, shapes.output.width, conv.size, bandRows)
    }
    package var weightCount: Int { conv.gemmWeightCount(inputChannels: shapes.input.channels) }


    /// The output rows split over the workers, bias and activation included; worker `w`'s band in
    /// its scratch.
    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let input = shapes.input, output = shapes.output
        let fused = SlidingWindowConvolution.fusedEpilogue(for: conv.activation)
        let rowsPerBand = bandRows, functions = buffers.kernels.functions
        let scratch = buffers.scratch, stride = buffers.scratchStride
        buffers.split(output.height, minimumPiece: rowsPerBand) { rows, worker in
            functions.pointee.convolve_stride2(
                buffers.input, input.channels, input.height, input.width, conv.padding, weights, biases, conv.filters,
                conv.size, buffers.output, output.height, output.width, rows.lowerBound, rows.upperBound, rowsPerBand,
                scratch + worker * stride, fused ?? 0)
        }
        if fused == nil {
            buffers.activate(filters: conv.filters, planeSize: output.planeSize, activation: conv.activation)
        }
    }
}
