extension ConvolutionAlgorithm {
    /// im2col one band of output rows at a time into a per-thread buffer that stays in cache,
    /// each band's GEMM right after: large outputs with small weights that no direct kernel takes
    /// (strides above 2, dilation), whose whole column matrix would stream through memory twice.
    public static let im2colBands = ConvolutionAlgorithm("im2col bands")
}

/// `.im2colBands`: im2col + GEMM one band of output rows at a time, each band's column matrix in
/// a per-thread buffer small enough to stay in L2, its GEMM right after (one group only).
///
/// For a large output with small weights the whole column matrix does not fit any cache
/// (YOLOv3's 3x3/2 32 -> 64 at 416: 288 x 43264 floats, 50 MB) and is written to memory and read
/// back; in bands it never leaves L2. Each band's GEMM re-packs the weights, so this only pays
/// while they are small (`weightLimit`, `columnMatrixThreshold`: `ConvolutionChoice`).
package struct Im2colBands: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .im2colBands }

    /// Column-matrix bytes one band aims at (L2 is 1-2 MB per core on current x86 parts).
    static let bandBytes = 1 << 20
    /// Largest weights (bytes) the planner has re-packed for every band: YOLOv3's 3x3/2 32 -> 64
    /// (72 KB) gains 17% at 416; its 64 -> 128 (288 KB, 26 bands) loses 15% (darknet-microbench).
    static let weightLimit = 128 << 10
    /// Smallest whole column matrix (bytes) worth splitting: below, it stays in L2 anyway.
    static let columnMatrixThreshold = 4 << 20

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool { candidate.conv.groups == 1 }

    /// Whether a layer gains from bands: weights under `weightLimit`, a whole column matrix over
    /// `columnMatrixThreshold`.
    static func pays(_ shapes: ConvolutionShapes) -> Bool {
        let columnBytes = Double(shapes.kernelArea) * Double(shapes.output.planeSize) * Double(MemoryLayout<Float>.size)
        return shapes.weightBytes <= Double(weightLimit) && columnBytes > Double(columnMatrixThreshold)
    }

    let shapes: ConvolutionShapes

    package init(_ candidate: ConvolutionCandidate) { shapes = candidate.shapes }

    /// Output rows per band.
    var bandRows: Int {
        max(1, min(shapes.output.height,
                   Self.bandBytes / max(shapes.kernelArea * shapes.output.width * MemoryLayout<Float>.size, 1)))
    }

    /// Each band lives in its thread's scratch.
    package var workspaceCount: Int { 0 }
    /// One thread's band buffer.
    package var scratchCount: Int { saturatingProduct(shapes.kernelArea, bandRows, shapes.output.width) }
    package var weightCount: Int { shapes.conv.gemmWeightCount(inputChannels: shapes.input.channels) }


    /// Bands split over the workers; worker `w` builds its column matrix in its scratch.
    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let conv = shapes.conv, input = shapes.input
        let rowsPerBand = bandRows, width = shapes.output.width, height = shapes.output.height
        let bands = (height + rowsPerBand - 1) / rowsPerBand, kernelArea = shapes.kernelArea
        let scratch = buffers.scratch, stride = buffers.scratchStride, kernels = buffers.kernels
        let output = buffers.output, plane = shapes.output.planeSize
        buffers.split(bands) { range, worker in
            let columns = scratch + worker * stride
            for band in range {
                let rows = (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand)
                kernels.im2col(buffers.input, channels: input.channels, height: input.height, width: input.width,
                               size: conv.size, strideX: conv.strideX, strideY: conv.strideY, dilation: conv.dilation,
                               padding: conv.padding, outHeight: height, outWidth: width, rows: rows, into: columns)
                BLAS.sgemm(m: conv.filters, n: rows.count * width, k: kernelArea, a: weights, lda: kernelArea,
                           b: columns, ldb: rows.count * width, c: output + rows.lowerBound * width, ldc: plane)
            }
        }
        buffers.addBiases(biases, filters: conv.filters, planeSize: plane, activation: conv.activation)
    }
}
