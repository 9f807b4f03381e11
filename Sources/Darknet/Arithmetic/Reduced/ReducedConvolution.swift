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
    static let largestPlaneForGEMMAgainstWinograd = 256

    /// Largest output plane on which bfloat16's F(2x2, 3x3) (`BFloat16WinogradF23`) in
    /// VDPBF16PS's arithmetic beats float32's Winograd paths: 38x38 (one Zen 4 core: YOLOv3's
    /// 256 -> 512 at 26x26 4.8 ms against 5.7, at 38x38 12.1 against 13.5), not 52x52 (128 ->
    /// 256: 6.2 against 4.9). In BFDOT's arithmetic (arm64), whose sums round to odd, YOLOv3-
    /// tiny's 26x26 layers in F(2x2, 3x3) added a detection at 0.5 (5 % of 19): there the
    /// 16-bit GEMM's limit holds (Arithmetic/README.md, "bfloat16").
    static let largestPlaneForBFloat16Winograd = 38 * 38

    /// Largest output plane bfloat16's F(3x3, 3x3) (`BFloat16WinogradF33`) takes: 104x104; above
    /// it (YOLOv3's 208x208 32 -> 64, fewer channels than it takes anyway) float32's bands.
    static let largestPlaneForBFloat16WinogradF33 = 104 * 104

    /// Smallest output plane bfloat16's F(3x3, 3x3) takes over F(2x2, 3x3) (from 20x20; one Zen 4
    /// core, `darknet-microbench`: YOLOv3's 26x26 256 -> 512 3.4 ms against 4.8, YOLOv3-tiny's
    /// 26x26 128 -> 256 1.02 against 1.18, YOLOv3's 19x19 512 -> 1024 at 608 10.3-10.6 against
    /// 10.0-10.2, its 13x13 at 416 5.9-6.2 against 4.8: a 13x13 plane takes 5x5 tiles of 3, 15x15).
    static let smallestPlaneForBFloat16WinogradF33 = 20 * 20

    /// Fewest input channels bfloat16's F(3x3, 3x3) takes (the default of
    /// `ConvolutionTuning.bfloat16WinogradF33Channels`): its GEMM's K is half the channels, and
    /// below 128 the transforms outweigh what it saves (one Zen 4 core, `darknet-microbench`:
    /// YOLOv3's 52x52 128 -> 256 4.3-4.4 ms against float32's bands 4.5-4.9; YOLOv3-tiny's
    /// 52x52 64 -> 128 1.31-1.34 against 1.28-1.42, YOLOv3's 104x104 64 -> 128 5.9-6.1 against
    /// 5.5-5.8, YOLOv3-tiny's 104x104 32 -> 64 2.0 against 1.7).
    static let fewestChannelsForBFloat16WinogradF33 = 128

    /// The largest output plane bfloat16's F(2x2, 3x3) takes on `kernels` (VDPBF16PS's
    /// arithmetic; BFDOT's: the GEMM's limit).
    static func largestPlaneForF23(_ kernels: ReducedKernels) -> Int {
        kernels.reference == .portable ? largestPlaneForBFloat16Winograd : largestPlaneForGEMMAgainstWinograd
    }

    /// Whether bfloat16's F(3x3, 3x3) takes a 3x3 "same" convolution of `shapes` on `kernels`:
    /// in VDPBF16PS's arithmetic only (in BFDOT's, F(2x2, 3x3) already added a detection at
    /// 26x26), from 20x20 to 104x104 outputs, from the tuning's channels (128); F(2x2, 3x3) takes
    /// the smaller ones, and those with fewer channels up to its own limit.
    static func takenByF33(_ shapes: ConvolutionShapes, on kernels: ReducedKernels,
                           tuning: ConvolutionTuning = ConvolutionTuning()) -> Bool {
        let plane = shapes.output.planeSize
        return kernels.reference == .portable && shapes.input.channels >= tuning.bfloat16WinogradF33Channels
            && plane >= smallestPlaneForBFloat16WinogradF33 && plane <= largestPlaneForBFloat16WinogradF33
    }

    /// Whether float32's `algorithm` computes a convolution of `shapes` faster than the 16-bit
    /// algorithms of `kernels`: Winograd over outputs larger than bfloat16's own Winograd takes
    /// (`takenByF33`, `largestPlaneForF23`); the sliding window over few channels
    /// only against float16, whose products come at float32's rate (bfloat16's come at twice it:
    /// YOLOv3-tiny's 208x208 16 -> 32 took 2.3 ms in bfloat16 against the sliding window's 4.5 on
    /// a Zen 4).
    static func floatIsFaster(_ algorithm: ConvolutionAlgorithm, _ shapes: ConvolutionShapes, on kernels: ReducedKernels,
                              tuning: ConvolutionTuning = ConvolutionTuning()) -> Bool {
        (algorithm == .slidingWindow && kernels.arithmetic == .float16)
            || (algorithm.isWinograd && shapes.output.planeSize > largestPlaneForF23(kernels)
                && !takenByF33(shapes, on: kernels, tuning: tuning))
    }

    /// The float32 algorithms `floatIsFaster` lets win against `arithmetic`, named for a rule's reason.
    static func fasterFloatAlgorithms(than arithmetic: Arithmetic) -> String {
        arithmetic == .float16 ? "Winograd or sliding window" : "Winograd"
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
/// rounded to 16-bit pairs at load (the set's `pack_weights`, batch norm folded first), K taken
/// as (pair of input channels, kernel tap): each pair holds channels 2c and 2c + 1 at one tap (an
/// odd channel count's last pair padded with +0). A run rounds its input to such pairs once, then
/// takes the output a chunk of positions at a time (a small plane is one chunk; with a window
/// larger than 1x1, a chunk is whole output rows): the threads copy the chunk's column matrix out
/// of the paired input (im2col over 32-bit words: the rounding is not repeated for each of the
/// window's taps), then multiply it by their share of the filters (`ReducedKernels`), float32
/// sums. A 1x1 stride-1 unpadded layer packs each chunk straight from its input. The whole column
/// matrix never exists (YOLOv3's 3x3/2 32 -> 64 at 416 would write 25 MB and read it back), and
/// each thread streams only its share of the weights per chunk. Bias and activation follow in
/// float32.
/// Where the weights are small enough to stay in each core's L2 and the plane holds several
/// chunks (`splitsChunks`), the threads instead take whole chunks each, copying and multiplying
/// their own columns by every filter with no wait between chunks: a few filters (YOLOv3-tiny's
/// 208x208 16 -> 32) left each thread too little to multiply per shared chunk.
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

    /// Bytes of packed weights up to which the threads take whole chunks each (`splitsChunks`).
    let chunkSplitWeightLimit: Int

    package init(_ candidate: ConvolutionCandidate) {
        self.init(candidate, chunkSplitWeightLimit: Self.defaultChunkSplitWeightLimit)
    }

    /// `chunkSplitWeightLimit: 0` has the threads share every chunk (for tests).
    init(_ candidate: ConvolutionCandidate, chunkSplitWeightLimit: Int) {
        shapes = candidate.shapes
        kernels = candidate.reducedKernels ?? .portable
        self.chunkSplitWeightLimit = chunkSplitWeightLimit
    }

    /// Pairs of input channels (the last padded with +0 when the count is odd).
    private var channelPairs: Int { (shapes.input.channels + 1) / 2 }
    /// The window's taps (size x size).
    private var taps: Int { shapes.conv.size * shapes.conv.size }
    /// K pairs: a pair of channels at each of the window's taps.
    private var pairs: Int { channelPairs * taps }
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
    /// Words of the input rounded to channel pairs (none for a layer that packs its input as it
    /// reads it).
    private var pairedInputCount: Int { shapes.isPointwise ? 0 : saturatingProduct(channelPairs, shapes.input.planeSize) }

    /// The planner's `chunkSplitWeightLimit`: a quarter of a 1 MiB L2, so that each core keeps
    /// the weights while its columns pass.
    static var defaultChunkSplitWeightLimit: Int { 256 * 1024 }

    /// Whether the threads take whole chunks each, every filter (else they share each chunk's
    /// columns and split its filters): small weights over a plane of several chunks.
    var splitsChunks: Bool {
        saturatingProduct(shapes.conv.filters, pairs, 4) <= chunkSplitWeightLimit && chunkCount > 1
    }

    /// The chunks of the plane where the threads share each one.
    var chunkCount: Int { (plane + chunk - 1) / chunk }

    /// The paired input and, where the threads share each chunk, its column matrix of pairs (a
    /// 32-bit word, the size of a float, per pair and position).
    package var workspaceCount: Int {
        let (total, overflow) = pairedInputCount.addingReportingOverflow(splitsChunks ? 0 : saturatingProduct(pairs, chunk))
        return overflow ? .max : total
    }
    /// Where the threads take whole chunks, each one's column matrix.
    package var scratchCount: Int { splitsChunks ? saturatingProduct(pairs, chunk) : 0 }
    /// The weights as 16-bit pairs, `filters x pairs` words.
    package var weightCount: Int { saturatingProduct(shapes.conv.filters, pairs) }

    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        let (weights, biases) = try source.folded()
        let filters = shapes.conv.filters, channels = shapes.input.channels, taps = taps
        // K reordered to (channel pair, tap, channel of the pair): rows of 2 x pairs floats.
        let depth = 2 * pairs
        var ordered = [Float](repeating: 0, count: filters * depth)
        for filter in 0..<filters {
            for channel in 0..<channels {
                for tap in 0..<taps {
                    ordered[filter * depth + ((channel / 2) * taps + tap) * 2 + channel % 2] =
                        weights[(filter * channels + channel) * taps + tap]
                }
            }
        }
        var packed = [Float](repeating: 0, count: filters * pairs)
        let packWeights = kernels.functions.pointee.pack_weights
        ordered.withUnsafeBufferPointer { ordered in
            packed.withUnsafeMutableBytes { words in
                packWeights(ordered.baseAddress!, filters, depth, words.baseAddress!.assumingMemoryBound(to: UInt32.self))
            }
        }
        return (packed, biases)
    }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let input = shapes.input, packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self)
        if !shapes.isPointwise {
            packChannelPairs(buffers.input, rowLength: input.planeSize, columns: input.planeSize,
                             into: UnsafeMutableRawPointer(buffers.workspace).assumingMemoryBound(to: UInt32.self), buffers.split)
        }
        if splitsChunks {
            multiplyChunksPerThread(weights: packedWeights, buffers)
        } else {
            multiplySharedChunks(weights: packedWeights, buffers)
        }
        buffers.addBiases(biases, filters: shapes.conv.filters, planeSize: plane, activation: shapes.conv.activation)
    }

    /// The products where the threads share each chunk: they copy its columns into the
    /// workspace after the paired input together, then multiply them by their shares of the
    /// filters.
    private func multiplySharedChunks(weights: UnsafePointer<UInt32>, _ buffers: ConvolutionBuffers) {
        let gemm = kernels.functions.pointee.gemm, plane = plane, pairs = pairs, filters = shapes.conv.filters
        let columns = buffers.workspace + pairedInputCount, out = buffers.output
        let packed = UnsafeMutableRawPointer(columns).assumingMemoryBound(to: UInt32.self)
        for first in stride(from: 0, to: plane, by: chunk) {
            let count = min(chunk, plane - first)
            writeColumns(first..<first + count, into: columns, buffers)
            buffers.split((filters + 7) / 8) { blocks, _ in
                let firstFilter = blocks.lowerBound * 8, rows = min(blocks.upperBound * 8, filters) - firstFilter
                gemm(weights + firstFilter * pairs, rows, pairs, packed, count, out + firstFilter * plane + first, plane)
            }
        }
    }

    /// The products where the threads take whole chunks: each worker copies a chunk's columns
    /// into its scratch and multiplies them by every filter. The chunks are cut to give each
    /// thread at least `chunksPerThread` (whole output rows with a window, whole 48-column tiles
    /// without), so that the last ones even out.
    private func multiplyChunksPerThread(weights: UnsafePointer<UInt32>, _ buffers: ConvolutionBuffers) {
        let gemm = kernels.functions.pointee.gemm, pairs = pairs, filters = shapes.conv.filters, plane = plane
        let unit = shapes.isPointwise ? 48 : shapes.output.width
        let wanted = (plane + Self.chunksPerThread * buffers.split.threads - 1) / (Self.chunksPerThread * buffers.split.threads)
        let step = max(unit, min(chunk, (wanted + unit - 1) / unit * unit))
        let single = ThreadSplit(threads: 1)
        buffers.split((plane + step - 1) / step) { pieces, worker in
            var own = buffers
            own.split = single
            let columns = buffers.scratch + worker * buffers.scratchStride
            for piece in pieces {
                let first = piece * step, count = min(step, plane - first)
                writeColumns(first..<first + count, into: columns, own)
                gemm(weights, filters, pairs, UnsafeMutableRawPointer(columns).assumingMemoryBound(to: UInt32.self), count,
                     buffers.output + first, plane)
            }
        }
    }

    /// Chunks each thread gets at least, where the threads take whole chunks.
    static var chunksPerThread: Int { 4 }

    /// Writes the column matrix of the output `positions` (a chunk) at `columns`: `pairs` rows
    /// of 16-bit pairs, split over `buffers`' threads. A 1x1 layer packs them from its input;
    /// with a window they are im2col'ed from the paired input (at the workspace's start) as
    /// 32-bit words (im2col moves floats without arithmetic): the same im2col over a tensor of
    /// `channelPairs` channels.
    private func writeColumns(_ positions: Range<Int>, into columns: UnsafeMutablePointer<Float>, _ buffers: ConvolutionBuffers) {
        guard !shapes.isPointwise else {
            packChannelPairs(buffers.input + positions.lowerBound, rowLength: plane, columns: positions.count,
                             into: UnsafeMutableRawPointer(columns).assumingMemoryBound(to: UInt32.self), buffers.split)
            return
        }
        let input = shapes.input, width = shapes.output.width
        var paired = buffers
        (paired.input, paired.workspace) = (UnsafePointer(buffers.workspace), columns)
        let pairedShapes = ConvolutionShapes(
            conv: shapes.conv, input: TensorShape(channels: channelPairs, height: input.height, width: input.width), output: shapes.output)
        paired.writeColumns(pairedShapes, group: 0, rows: positions.lowerBound / width..<positions.upperBound / width)
    }

    /// Packs `columns` positions of every input channel (channel c's row at `source + c *
    /// rowLength`) into `channelPairs` rows of `columns` 16-bit pairs at `pairs`, split over the
    /// threads by pairs.
    private func packChannelPairs(_ source: UnsafePointer<Float>, rowLength: Int, columns: Int,
                                  into pairs: UnsafeMutablePointer<UInt32>, _ split: ThreadSplit) {
        let pack = kernels.functions.pointee.pack, channels = shapes.input.channels
        split(channelPairs) { range, _ in
            let firstChannel = 2 * range.lowerBound, rows = min(2 * range.upperBound, channels) - firstChannel
            pack(source + firstChannel * rowLength, rows, rowLength, columns, pairs + range.lowerBound * columns)
        }
    }
}

extension LayerPlan {
    /// For a bfloat16 or float16 convolution, the kernel set it runs.
    package var reducedKernels: ReducedKernels? {
        convolutions.lazy.compactMap { ($0.method as? any RunsReducedKernels)?.kernels }.first
    }
}
