/// im2col + GEMM one band of output rows at a time, each band's column matrix in a per-thread
/// buffer small enough to stay in L2, its GEMM right after (one group only).
///
/// For a large output with small weights the whole column matrix does not fit any cache
/// (YOLOv3's 3x3/2 32 -> 64 at 416: 288 x 43264 floats, 50 MB) and is written to memory and read
/// back; in bands it never leaves L2. Each band's GEMM re-packs the weights, so this only pays
/// while they are small. Stride 2 goes to `SlidingWindowStride2` when its weights are small,
/// which skips the copy altogether; this path keeps the strides and dilations it does not take.
package struct Im2colBands: ShapedConvolutionMethod {
    /// Column-matrix bytes one band aims at (L2 is 1-2 MB per core on current x86 parts).
    static let bandBytes = 1 << 20
    /// Largest weights (bytes) re-packed for every band: YOLOv3's 3x3/2 32 -> 64 (72 KB) gains
    /// 17% at 416; its 64 -> 128 (288 KB, 26 bands) loses 15% (darknet-microbench).
    static let weightLimit = 128 << 10
    /// Smallest whole column matrix (bytes) worth splitting: below, it stays in L2 anyway.
    static let columnMatrixThreshold = 4 << 20

    package let shapes: ConvolutionShapes

    package init(shapes: ConvolutionShapes) { self.shapes = shapes }

    /// Rows of the column matrix (the kernel area).
    var kernelArea: Int { inputShape.channels * conv.size * conv.size }

    /// Output rows per band.
    var bandRows: Int {
        max(1, min(outputShape.height, Self.bandBytes / max(kernelArea * outputShape.width * MemoryLayout<Float>.size, 1)))
    }

    /// Floats of one thread's band buffer.
    package var scratchCount: Int { kernelArea * bandRows * outputShape.width }

    /// Whether a layer gains from bands: one group, weights under `weightLimit`, a whole column
    /// matrix over `columnMatrixThreshold`.
    static func suits(_ conv: ConvolutionalSpec, inputChannels: Int, outputHeight: Int, outputWidth: Int) -> Bool {
        guard conv.groups == 1 else { return false }
        let kernelArea = Double(inputChannels * conv.size * conv.size), floatBytes = Double(MemoryLayout<Float>.size)
        return Double(conv.filters) * kernelArea * floatBytes <= Double(weightLimit)
            && kernelArea * Double(outputHeight * outputWidth) * floatBytes > Double(columnMatrixThreshold)
    }

    /// The convolution without bias or activation into `output`. Worker `w` uses the
    /// `scratchCount` floats at `scratch + w * scratchStride`; `split` spreads the bands over
    /// the workers.
    package func run(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                     scratch: UnsafeMutablePointer<Float>, scratchStride: Int,
                     split: ThreadSplit) {
        let rowsPerBand = bandRows, width = outputShape.width, height = outputShape.height
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        split(bands) { range, worker in
            let columns = scratch + worker * scratchStride
            for band in range {
                let rows = (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand)
                im2col(input, channels: inputShape.channels, height: inputShape.height, width: inputShape.width,
                       size: conv.size, strideX: conv.strideX, strideY: conv.strideY, dilation: conv.dilation,
                       padding: conv.padding, outHeight: height, outWidth: width, rows: rows, into: columns)
                BLAS.sgemm(m: conv.filters, n: rows.count * width, k: kernelArea, a: weights, lda: kernelArea,
                           b: columns, ldb: rows.count * width,
                           c: output + rows.lowerBound * width, ldc: outputShape.planeSize)
            }
        }
    }

    /// Each band lives in its thread's scratch.
    package var workspaceCount: Int { 0 }

    package func run(_ buffers: ConvolutionBuffers) {
        run(input: buffers.input, weights: buffers.weights, output: buffers.output, scratch: buffers.scratch,
            scratchStride: buffers.scratchStride, split: buffers.split)
        buffers.addBiases(filters: conv.filters, planeSize: outputShape.planeSize, activation: conv.activation)
    }

    package var weightCount: Int { conv.gemmWeightCount(inputChannels: inputShape.channels) }
}
