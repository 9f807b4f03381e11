import CDarknetKernels

/// A 16-bit float format a `ReducedConvolution` computes in (`BFloat16/`, `Float16/`).
package protocol ReducedFormat: Sendable {
    /// The algorithm's name; its `arithmetic` is the format's.
    static var algorithm: ConvolutionAlgorithm { get }
}

/// A convolution whose plan runs a reduced-precision kernel set (`LayerPlan.reducedKernels`).
package protocol RunsReducedKernels {
    /// The kernel set it runs.
    var kernels: ReducedKernels { get }
}

/// A convolution in a 16-bit float format (`.bfloat16GEMM`, `.float16GEMM`). The weights are
/// rounded to 16-bit pairs at load (the set's `pack_weights`, batch norm folded first); a run
/// writes the column matrix (im2col, skipped for 1x1 stride-1 unpadded layers), packs it to
/// 16-bit pairs and multiplies every filter by them (`ReducedKernels`), float32 sums: a small
/// plane packed whole, the filters split over the threads; a large one in chunks of positions,
/// one per thread at a time. Bias and activation follow in float32.
/// Every output is summed over K in the same order whatever the chunk, so results do not depend
/// on the thread count.
package struct ReducedConvolution<Format: ReducedFormat>: FloatConvolutionMethod, RunsReducedKernels {
    package static var algorithm: ConvolutionAlgorithm { Format.algorithm }

    /// Largest output plane on which this algorithm beats float32's Winograd paths (measured on
    /// YOLOv3-tiny's 3x3 layers in bfloat16 on x86-64: Benchmarks/PERFORMANCE.md, "bfloat16").
    static var largestPlaneAgainstWinograd: Int { 256 }

    /// Whether float32's `algorithm` computes a convolution of `shapes` faster than this one
    /// (`ArithmeticChoice`): Winograd over large outputs, and the sliding window over few channels.
    static func floatIsFaster(_ algorithm: ConvolutionAlgorithm, _ shapes: ConvolutionShapes) -> Bool {
        algorithm == .slidingWindow || (algorithm.isWinograd && shapes.output.planeSize > largestPlaneAgainstWinograd)
    }

    /// Whether the algorithm computes a convolution of these shapes (one group).
    static func takes(_ shapes: ConvolutionShapes) -> Bool { shapes.conv.groups == 1 }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        let arithmetic = algorithm.arithmetic
        return candidate.arithmetic == arithmetic && candidate.reducedKernels?.arithmetic == arithmetic
            && takes(candidate.shapes)
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

    /// Most output positions a chunk holds: a plane up to this size is packed whole and its
    /// filters split over the threads (each thread streams only its share of the weights); a
    /// larger one is cut into chunks of at most this many positions, one thread packing and
    /// multiplying each.
    static var chunkLimit: Int { 480 }

    private var packsWhole: Bool { plane <= Self.chunkLimit }
    private var columnCount: Int { shapes.isPointwise ? 0 : saturatingProduct(shapes.kernelArea, plane) }

    /// The column matrix (im2col) and, for a plane packed whole, its 16-bit pairs.
    package var workspaceCount: Int {
        let (total, overflow) = columnCount.addingReportingOverflow(packsWhole ? saturatingProduct(pairs, plane) : 0)
        return overflow ? .max : total
    }
    /// A chunk's packed pairs (one 32-bit word, the size of a float, per pair and position).
    package var scratchCount: Int { packsWhole ? 0 : saturatingProduct(pairs, Self.chunkLimit) }
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
        let columns: UnsafePointer<Float>
        if shapes.isPointwise {
            columns = buffers.input
        } else {
            buffers.writeColumns(shapes, group: 0)
            columns = UnsafePointer(buffers.workspace)
        }
        let functions = kernels.functions.pointee
        let packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self), out = buffers.output
        if packsWhole {
            let packed = UnsafeMutableRawPointer(buffers.workspace + columnCount).assumingMemoryBound(to: UInt32.self)
            buffers.split(pairs) { range, _ in
                let first = 2 * range.lowerBound, rows = min(2 * range.upperBound, depth) - first
                functions.pack(columns + first * plane, rows, plane, plane, packed + range.lowerBound * plane)
            }
            buffers.split((filters + 7) / 8) { blocks, _ in
                let first = blocks.lowerBound * 8, rows = min(blocks.upperBound * 8, filters) - first
                functions.gemm(packedWeights + first * pairs, rows, pairs, packed, plane, out + first * plane, plane)
            }
        } else {
            let threads = buffers.split.threads
            let chunk = min(Self.chunkLimit, max(48, ((plane + 4 * threads - 1) / (4 * threads) + 47) / 48 * 48))
            let scratch = buffers.scratch, stride = buffers.scratchStride
            buffers.split((plane + chunk - 1) / chunk) { range, worker in
                let packed = UnsafeMutableRawPointer(scratch + worker * stride).assumingMemoryBound(to: UInt32.self)
                for index in range {
                    let first = index * chunk, count = min(chunk, plane - first)
                    functions.pack(columns + first, depth, plane, count, packed)
                    functions.gemm(packedWeights, filters, pairs, packed, count, out + first, plane)
                }
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
