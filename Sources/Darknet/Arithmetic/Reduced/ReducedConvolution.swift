import CDarknetKernels

/// A 16-bit float format a `ReducedConvolution` computes in (`BFloat16/`, `Float16/`).
package protocol ReducedFormat: Sendable {
    /// The algorithm's name; its `arithmetic` is the format's.
    static var algorithm: ConvolutionAlgorithm { get }
}

/// Which convolutions a `ReducedConvolution` takes, and where float32 beats it: the same for
/// both formats (`ArithmeticChoice`'s 16-bit rules).
package enum ReducedConvolutionShapes {
    /// Largest output plane on which the 16-bit GEMM beats float32's Winograd paths (measured on
    /// YOLOv3-tiny's 3x3 layers in bfloat16 on x86-64: Benchmarks/PERFORMANCE.md, "bfloat16").
    static let largestPlaneAgainstWinograd = 256

    /// Whether float32's `algorithm` computes a convolution of `shapes` faster than the 16-bit
    /// GEMM: Winograd over large outputs, and the sliding window over few channels.
    static func floatIsFaster(_ algorithm: ConvolutionAlgorithm, _ shapes: ConvolutionShapes) -> Bool {
        algorithm == .slidingWindow || (algorithm.isWinograd && shapes.output.planeSize > largestPlaneAgainstWinograd)
    }

    /// Whether the 16-bit GEMM computes a convolution of these shapes (one group).
    static func takes(_ shapes: ConvolutionShapes) -> Bool { shapes.conv.groups == 1 }
}

/// A convolution whose plan runs a reduced-precision kernel set (`LayerPlan.reducedKernels`).
package protocol RunsReducedKernels {
    /// The kernel set it runs.
    var kernels: ReducedKernels { get }
}

/// A convolution in a 16-bit float format (`.bfloat16GEMM`, `.float16GEMM`). The weights are
/// rounded to 16-bit pairs at load (the set's `pack_weights`, batch norm folded first). A run
/// takes the output a chunk of positions at a time (a small plane is one chunk; with a window
/// larger than 1x1, a chunk is whole output rows): the threads write the chunk's column matrix
/// (im2col, skipped for 1x1 stride-1 unpadded layers, which read the input), pack it to 16-bit
/// pairs, then multiply it by their share of the filters (`ReducedKernels`), float32 sums. The
/// whole column matrix never exists (YOLOv3's 3x3/2 32 -> 64 at 416 would write 50 MB and read
/// it back), and each thread streams only its share of the weights per chunk. Bias and
/// activation follow in float32.
/// Every output is summed over K in the same order whatever the chunk, so results do not depend
/// on the thread count.
package struct ReducedConvolution<Format: ReducedFormat>: FloatConvolutionMethod, RunsReducedKernels {
    package static var algorithm: ConvolutionAlgorithm { Format.algorithm }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        let arithmetic = algorithm.arithmetic
        return candidate.arithmetic == arithmetic && candidate.reducedKernels?.arithmetic == arithmetic
            && ReducedConvolutionShapes.takes(candidate.shapes)
    }

    let shapes: ConvolutionShapes
    /// The kernel set it runs.
    package let kernels: ReducedKernels

    package init(_ candidate: ConvolutionCandidate) {
        shapes = candidate.shapes
        kernels = candidate.reducedKernels ?? .portable
    }

    /// K pairs: the GEMM's K halved, rounded up (an odd K is padded with zero).
    private var pairs: Int { (shapes.kernelArea + 1) / 2 }
    private var plane: Int { shapes.output.planeSize }

    /// Words of packed pairs a chunk holds per K block (256 pairs, the x86-64 kernels' block):
    /// 480 KiB, which stay in a core's L2 while every block of filters passes over them.
    static var chunkWords: Int { 256 * 480 }

    /// Output positions per chunk: as many whole 48-column tiles as `chunkWords` holds at this
    /// K (480 from 256 pairs on, more for shorter K, so that a large plane of few channels is not
    /// cut into hundreds of steps), and the whole plane when it is smaller; with a window larger
    /// than 1x1, whole output rows (at least one).
    private var chunk: Int {
        let positions = min(plane, max(48, Self.chunkWords / min(pairs, 256) / 48 * 48))
        guard !shapes.isPointwise else { return positions }
        let width = shapes.output.width
        return max(1, positions / width) * width
    }
    /// Floats of one chunk's column matrix (none for a layer that reads its input as it is).
    private var columnCount: Int { shapes.isPointwise ? 0 : saturatingProduct(shapes.kernelArea, chunk) }

    /// One chunk's column matrix and its 16-bit pairs (a 32-bit word, the size of a float, per
    /// pair and position).
    package var workspaceCount: Int {
        let (total, overflow) = columnCount.addingReportingOverflow(saturatingProduct(pairs, chunk))
        return overflow ? .max : total
    }
    package var scratchCount: Int { 0 }
    /// The weights as 16-bit pairs, `filters x pairs` words.
    package var weightCount: Int { saturatingProduct(shapes.conv.filters, pairs) }

    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        let (weights, biases) = try source.folded()
        let filters = shapes.conv.filters, depth = shapes.kernelArea
        var packed = [Float](repeating: 0, count: filters * pairs)
        let packWeights = kernels.functions.pointee.pack_weights
        weights.withUnsafeBufferPointer { weights in
            packed.withUnsafeMutableBytes { words in
                packWeights(weights.baseAddress!, filters, depth, words.baseAddress!.assumingMemoryBound(to: UInt32.self))
            }
        }
        return (packed, biases)
    }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let conv = shapes.conv, depth = shapes.kernelArea, plane = plane, pairs = pairs, filters = conv.filters
        let functions = kernels.functions.pointee, chunk = chunk
        let packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self), out = buffers.output
        let packed = UnsafeMutableRawPointer(buffers.workspace + columnCount).assumingMemoryBound(to: UInt32.self)
        for first in stride(from: 0, to: plane, by: chunk) {
            let count = min(chunk, plane - first)
            let columns: UnsafePointer<Float>, rowLength: Int
            if shapes.isPointwise {
                (columns, rowLength) = (buffers.input + first, plane)
            } else {
                let width = shapes.output.width
                buffers.writeColumns(shapes, group: 0, rows: first / width..<(first + count) / width)
                (columns, rowLength) = (UnsafePointer(buffers.workspace), count)
            }
            buffers.split(pairs) { range, _ in
                let firstRow = 2 * range.lowerBound, rows = min(2 * range.upperBound, depth) - firstRow
                functions.pack(columns + firstRow * rowLength, rows, rowLength, count, packed + range.lowerBound * count)
            }
            buffers.split((filters + 7) / 8) { blocks, _ in
                let firstFilter = blocks.lowerBound * 8, rows = min(blocks.upperBound * 8, filters) - firstFilter
                functions.gemm(packedWeights + firstFilter * pairs, rows, pairs, packed, count,
                               out + firstFilter * plane + first, plane)
            }
        }
        buffers.addBiases(biases, filters: filters, planeSize: plane, activation: conv.activation)
    }
}

extension LayerPlan {
    /// For a bfloat16 or float16 convolution, the kernel set it runs.
    package var reducedKernels: ReducedKernels? {
        convolutions.lazy.compactMap { ($0.method as? any RunsReducedKernels)?.kernels }.first
    }
}
