import CDarknetKernels

extension ConvolutionAlgorithm {
    /// bfloat16 products summed in float32 (`Arithmetic.bfloat16`): im2col where the window is
    /// larger than 1x1, then the reduced-precision GEMM.
    public static let bfloat16GEMM = ConvolutionAlgorithm("bf16 gemm", arithmetic: .bfloat16)
}

/// `.bfloat16GEMM`: a convolution in bfloat16. The weights are rounded to bfloat16 pairs at load
/// (`swiftdarknet_bf16_pack_weights`, batch norm folded first); a run writes the column matrix
/// (im2col, skipped for 1x1 stride-1 unpadded layers), then cuts the output positions into
/// chunks: each thread packs a chunk's columns to bfloat16 pairs in its scratch and multiplies
/// every filter by them (`ReducedKernels`), float32 sums; bias and activation follow in float32.
/// Every output is summed over K in the same order whatever the chunk, so results do not depend
/// on the thread count.
package struct BFloat16Convolution: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .bfloat16GEMM }

    /// Whether the algorithm computes a convolution of these shapes (one group).
    static func takes(_ shapes: ConvolutionShapes) -> Bool { shapes.conv.groups == 1 }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        candidate.arithmetic == .bfloat16 && candidate.reducedKernels != nil && takes(candidate.shapes)
    }

    let shapes: ConvolutionShapes
    /// The kernel set it runs.
    let kernels: ReducedKernels

    package init(_ candidate: ConvolutionCandidate) {
        shapes = candidate.shapes
        kernels = candidate.reducedKernels ?? .portable
    }

    /// K pairs: the GEMM's K halved, rounded up (an odd K is padded with zero).
    private var pairs: Int { (shapes.kernelArea + 1) / 2 }
    private var plane: Int { shapes.output.planeSize }

    /// Bytes of packed columns a chunk aims at: about a quarter of one core's L2, so that the
    /// chunk stays there while every filter row passes over it.
    static let chunkBytes = 262_144

    /// Output positions per chunk: a multiple of 48 (three vectors of the AVX-512 tile), at least
    /// 48, at most 480, and no more than the plane needs.
    var chunkColumns: Int {
        let aim = max(48, min(480, Self.chunkBytes / 4 / max(pairs, 1) / 48 * 48))
        return min(aim, (plane + 15) / 16 * 16)
    }

    package var workspaceCount: Int {
        shapes.isPointwise ? 0 : saturatingProduct(shapes.kernelArea, plane)
    }
    /// A chunk's packed pairs (one 32-bit word, the size of a float, per pair and position).
    package var scratchCount: Int { saturatingProduct(pairs, chunkColumns) }
    /// The weights as bfloat16 pairs, `filters x pairs` words.
    package var weightCount: Int { saturatingProduct(shapes.conv.filters, pairs) }

    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        let (weights, biases) = try source.folded()
        let filters = shapes.conv.filters, depth = shapes.kernelArea
        var packed = [Float](repeating: 0, count: filters * pairs)
        weights.withUnsafeBufferPointer { weights in
            packed.withUnsafeMutableBytes { words in
                swiftdarknet_bf16_pack_weights(weights.baseAddress!, filters, depth,
                                               words.baseAddress!.assumingMemoryBound(to: UInt32.self))
            }
        }
        return (packed, biases)
    }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let conv = shapes.conv, input = shapes.input, output = shapes.output
        let depth = shapes.kernelArea, plane = plane, pairs = pairs, filters = conv.filters
        let columns: UnsafePointer<Float>
        if shapes.isPointwise {
            columns = buffers.input
        } else {
            let workspace = buffers.workspace, vector = buffers.kernels, kernelRows = conv.size * conv.size
            buffers.split(input.channels) { channels, _ in
                vector.im2col(buffers.input + channels.lowerBound * input.planeSize, channels: channels.count,
                              height: input.height, width: input.width, size: conv.size, strideX: conv.strideX,
                              strideY: conv.strideY, dilation: conv.dilation, padding: conv.padding,
                              outHeight: output.height, outWidth: output.width,
                              into: workspace + channels.lowerBound * kernelRows * plane)
            }
            columns = UnsafePointer(workspace)
        }
        let chunk = chunkColumns, chunks = (plane + chunk - 1) / chunk
        let functions = kernels.functions.pointee, scratch = buffers.scratch, stride = buffers.scratchStride
        let packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self), out = buffers.output
        buffers.split(chunks) { range, worker in
            let packed = UnsafeMutableRawPointer(scratch + worker * stride).assumingMemoryBound(to: UInt32.self)
            for index in range {
                let first = index * chunk, count = min(chunk, plane - first)
                functions.pack(columns + first, depth, plane, count, packed)
                functions.gemm(packedWeights, filters, pairs, packed, count, out + first, plane)
            }
        }
        buffers.addBiases(biases, filters: filters, planeSize: plane, activation: conv.activation)
    }
}

extension LayerPlan {
    /// For a bfloat16 convolution, the kernel set it runs.
    package var reducedKernels: ReducedKernels? {
        convolutions.lazy.compactMap { ($0.method as? BFloat16Convolution)?.kernels }.first
    }
}
