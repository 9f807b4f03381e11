import CDarknetKernels

extension ConvolutionAlgorithm {
    /// 1x1, stride 1, no padding, one group, by the tile-major product kernel instead of the
    /// BLAS (`PointwiseConvolution`): where the BLAS has no AVX-512 kernels on a CPU that has them.
    public static let pointwise = ConvolutionAlgorithm("pointwise")
}

/// `.pointwise`: a 1x1 stride-1 unpadded convolution by the Winograd paths' register-blocked
/// tile-major product kernel instead of a BLAS GEMM. The output positions are cut into chunks;
/// for each, the input's positions are copied in blocks of 16 (the vector lanes), every block of
/// filters is summed over all input channels in registers, and each filter's row of outputs is
/// stored to its plane, with bias and activation (linear, leaky, ReLU, logistic; the others in a
/// pass after, as on the GEMM paths). Every output is summed over the channels in order, so
/// results do not depend on how chunks fall to threads.
///
/// The planner takes it where it beats the BLAS (`beatsTheBLAS`): an OpenBLAS without AVX-512
/// kernels on a CPU with AVX-512, as under `OPENBLAS_CORETYPE=Haswell`.
package struct PointwiseConvolution: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .pointwise }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        candidate.shapes.isPointwise && candidate.conv.groups == 1
    }

    /// Whether this kernel beats the candidate's BLAS on 1x1 layers: it runs its AVX-512 set and the BLAS
    /// has no AVX-512 kernels (OpenBLAS's Haswell or Zen ones on an AVX-512 CPU: 1.3-1.9x their
    /// sgemm on YOLO's 1x1 shapes, one thread). With OpenBLAS's SkylakeX kernels they are about
    /// even, and the BLAS stays.
    static func beatsTheBLAS(_ candidate: ConvolutionCandidate) -> Bool {
        candidate.kernels == .avx512 && !candidate.cpu.blas.hasAVX512Kernels
    }

    let shapes: ConvolutionShapes

    package init(_ candidate: ConvolutionCandidate) { shapes = candidate.shapes }

    /// Floats of packed input and products a chunk aims at, with the weights about what one
    /// core's L2 holds.
    static let chunkFloats = 98_304
    /// The fewest positions of a chunk: below, every chunk rereads all the weights for too few
    /// products (1024 -> 256 at 13x13: 0.6-0.8 ms in chunks of 16-32, 0.5 ms in 144).
    static let shortestChunk = 128
    /// The fewest positions of a chunk cut for stealing: one vector block of the AVX-512 kernel.
    static let stealableChunk = 48

    private var channels: Int { shapes.input.channels }
    private var filters: Int { shapes.output.channels }
    private var plane: Int { shapes.output.planeSize }

    /// Chunks the positions are cut into for a split over `threads` threads, and the positions
    /// of each but the last (a multiple of 16). On one thread: chunks of at least
    /// `shortestChunk`, about `chunkFloats` of packed input and products each. On more: also at
    /// least 4 per thread where the plane has room for chunks of `stealableChunk`, so that a
    /// thread that finishes first takes chunks from one whose core another process holds (tiny's
    /// 13x13 layers had one chunk per thread). An even count where there are two or more. Chunks
    /// only decide which thread computes an output, not its sum.
    func chunks(threads: Int) -> (count: Int, positions: Int) {
        Self.chunks(channels: channels, filters: filters, plane: plane, threads: threads)
    }

    static func chunks(channels: Int, filters: Int, plane: Int, threads: Int) -> (count: Int, positions: Int) {
        let aim = max(shortestChunk, chunkFloats / max(channels + filters, 1))
        var count = max(1, (plane + aim - 1) / aim)
        if threads > 1 { count = max(count, min(4 * threads, plane / stealableChunk)) }
        if count > 1 && count % 2 == 1 { count += 1 }
        let positions = ((plane + count - 1) / count + 15) / 16 * 16
        return ((plane + positions - 1) / positions, positions)
    }

    package var workspaceCount: Int { 0 }
    /// A chunk's packed input and products (the one-thread chunks, the longest).
    package var scratchCount: Int { saturatingProduct(chunks(threads: 1).positions, channels + filters) }
    /// Weights transposed, `channels x filters`.
    package var weightCount: Int { shapes.conv.gemmWeightCount(inputChannels: channels) }

    /// Weights transposed, `channels x filters`.
    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        let (weights, biases) = try source.folded()
        return (transposed(weights, rows: filters, columns: channels), biases)
    }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let (count, positions) = chunks(threads: buffers.split.threads)
        let channels = channels, filters = filters, plane = plane, activation = shapes.conv.activation
        let input = buffers.input, output = buffers.output, scratch = buffers.scratch, stride = buffers.scratchStride
        let pointwise = buffers.kernels.functions.pointee.pointwise
        // Bias and activation in the store where the C kernels have the activation, else after.
        let fused = activation.simdKernelCode
        let storeBiases = fused == nil ? nil : biases
        buffers.split(count) { range, worker in
            let packed = scratch + worker * stride, products = packed + positions * channels
            for chunk in range {
                let first = chunk * positions
                pointwise(weights, input, channels, filters, plane, first, min(positions, plane - first), storeBiases,
                          fused ?? -1, packed, products, output)
            }
        }
        if fused == nil { buffers.addBiases(biases, filters: filters, planeSize: plane, activation: activation) }
    }
}
