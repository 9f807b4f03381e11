import CDarknetKernels
import Dispatch
import Foundation

/// Winograd F(4x4, 3x3) convolution for 3x3, stride-1 layers (Lavin & Gray, 2016).
///
/// Each 4x4 block of output is computed from a 6x6 input tile: `Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A`.
/// Over all channels the element-wise products become 36 independent matrix products
/// (`filters x channels` times `channels x tiles`), 4x fewer multiplications than im2col.
///
/// Layouts: transformed weights `[36][filters][channels]`; transformed input
/// `[36][channels][tiles]`; products `[36][filters][tiles]`; tiles row-major over the output.
package enum WinogradF43 {
    /// Elements per transformed tile (6x6).
    package static let elements = 36
    /// Floats of scratch the input and output transforms need for an input `width` wide.
    package static func scratchCount(width: Int) -> Int {
        let columns = (width + 3) / 4
        return max(width + 6 * (4 * columns + 2), 28 * columns)
    }

    /// Workspace floats one layer needs: transformed input and products (the per-thread
    /// transform scratch comes on top, `scratchCount(width:)` per thread).
    package static func workspaceCount(channels: Int, filters: Int, height: Int, width: Int) -> Int {
        let (rows, columns) = tileCounts(height: height, width: width)
        return elements * rows * columns * (channels + filters)
    }

    /// Tiles needed to cover an output of `height x width`.
    @inline(__always)
    package static func tileCounts(height: Int, width: Int) -> (rows: Int, columns: Int) {
        ((height + 3) / 4, (width + 3) / 4)
    }

    /// `G g Gᵀ` for every (filter, channel) kernel of row-major `filters x channels x 3 x 3`
    /// weights: filter-major `[36][filters][channels]` for the GEMM path, or channel-major
    /// `[36][channels][paddedFilters]` (zero past the last filter) for the tile-major path.
    /// With `filterScales`, each filter's kernels are multiplied by its scale first (batch norm
    /// folded on the way: the weights can be read straight from a file, and are checked by
    /// `largestScaledWeight`, the largest magnitude of the scaled weights: NaN or infinity if any
    /// is one).
    package static func transformWeights<Runs: WeightRuns>(_ weights: Runs, filterScales: [Float]? = nil, filters: Int,
                                                          channels: Int, channelMajor: Bool = false)
        throws(Runs.Failure) -> (values: [Float], largestScaledWeight: Float) {
        let count = elements * channels * (channelMajor ? paddedFilters(filters) : filters)
        let major: Int32 = channelMajor ? 1 : 0
        // A block is 16 kernels, or 16 filters when channel-major (see the kernel).
        return try transformWeightsInBlocks(weights, floatsPerBlock: 16 * 9 * (channelMajor ? channels : 1),
                                            filterScales: filterScales, count: count,
                                            blocks: swiftdarknet_winograd_weight_blocks(filters, channels, major)) { g, scales, u, first, blocks in
            swiftdarknet_winograd_weights(g, scales, filters, channels, major, u, first, blocks)
        }
    }

    /// `transformWeights` of weights in memory.
    package static func transformWeights(_ weights: UnsafePointer<Float>, filterScales: [Float]? = nil, filters: Int,
                                         channels: Int, channelMajor: Bool = false)
        -> (values: [Float], largestScaledWeight: Float) {
        transformWeights(MemoryWeightRuns(weights, count: filters * channels * 9), filterScales: filterScales,
                         filters: filters, channels: channels, channelMajor: channelMajor)
    }

    /// `transformWeights` of an array.
    package static func transformWeights(_ weights: [Float], filters: Int, channels: Int,
                                         channelMajor: Bool = false) -> [Float] {
        weights.withUnsafeBufferPointer {
            transformWeights($0.baseAddress!, filters: filters, channels: channels, channelMajor: channelMajor).values
        }
    }

    /// Filters rounded up to whole SIMD vectors in the tile-major layouts.
    package static func paddedFilters(_ filters: Int) -> Int { swiftdarknet_winograd_padded_filters(filters) }

    /// Workspace floats of the tile-major path: transformed input and tile-major products.
    package static func tileMajorWorkspaceCount(channels: Int, filters: Int, height: Int, width: Int) -> Int {
        let (rows, columns) = tileCounts(height: height, width: width)
        return elements * rows * columns * (channels + paddedFilters(filters))
    }

    /// Tile-major products of elements `elementRange`: `p[e][tile][f] = Σ_c v[e][c][tile] u[e][c][f]`
    /// with channel-major weights `u`; element-count agnostic, so F(2x2, 3x3)'s 16 too.
    @inline(__always)
    package static func multiplyTileMajor(weights u: UnsafePointer<Float>, input v: UnsafePointer<Float>,
                                          into p: UnsafeMutablePointer<Float>, channels: Int, filters: Int,
                                          tiles: Int, elementRange: Range<Int>) {
        swiftdarknet_winograd_products_tile_major(u, v, p, channels, paddedFilters(filters), tiles,
                                                  elementRange.lowerBound, elementRange.count)
    }

    /// `transformOutput` for tile-major products of the `tileRows` rows of tiles from `firstTileRow`.
    @inline(__always)
    package static func transformTileMajorOutput(_ p: UnsafePointer<Float>, filters: Int, height: Int, width: Int,
                                                 firstTileRow: Int = 0, tileRows: Int, tileColumns: Int,
                                                 biases: UnsafePointer<Float>, epilogue: Int32,
                                                 into output: UnsafeMutablePointer<Float>, filterRange: Range<Int>) {
        swiftdarknet_winograd_output_tile_major(p, paddedFilters(filters), height, width, firstTileRow, tileRows,
                                                tileColumns, biases, epilogue, output, filterRange.lowerBound,
                                                filterRange.count)
    }

    /// `Bᵀ d B` for every 6x6 tile in the `tileRows` rows of tiles from `firstTileRow`, of every
    /// channel in `channelRange` (zero padding of 1 around the input), written to the 36 matrices
    /// of `v` (`[36][channels][tileRows * tileColumns]`). `scratch` holds `scratchCount(width:)` floats.
    @inline(__always)
    package static func transformInput(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                                       firstTileRow: Int = 0, tileRows: Int, tileColumns: Int,
                                       into v: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                                       channelRange: Range<Int>? = nil) {
        let range = channelRange ?? 0..<channels
        swiftdarknet_winograd_input(input, channels, height, width, firstTileRow, tileRows, tileColumns, v, scratch,
                                    range.lowerBound, range.count)
    }

    /// `Aᵀ m A` for every tile of every filter in `filterRange`, writing the 4x4 blocks (clipped at
    /// the edges) plus each filter's bias, then `epilogue` (a `SlidingWindowConvolution` epilogue code).
    @inline(__always)
    package static func transformOutput(_ m: UnsafePointer<Float>, filters: Int, height: Int, width: Int,
                                        tileRows: Int, tileColumns: Int, biases: UnsafePointer<Float>, epilogue: Int32,
                                        into output: UnsafeMutablePointer<Float>,
                                        scratch: UnsafeMutablePointer<Float>, filterRange: Range<Int>? = nil) {
        let range = filterRange ?? 0..<filters
        swiftdarknet_winograd_output(m, filters, height, width, tileRows, tileColumns, biases, epilogue,
                                     output, scratch, range.lowerBound, range.count)
    }
}

/// `count` floats of transformed weights, laid out by `transform` (the C kernel, called with the
/// input of a run of blocks, the filter scales or nil, the output and the run's first block and
/// length, returning the largest magnitude it read) into fresh memory that every worker first
/// backs with one call per share (see `swiftdarknet_prefault_write`), and the largest magnitude
/// of all. Layers of a few MB and up are laid out by every core: loading is bound by this. Each
/// worker reads its blocks' weights a run at a time (`weights.floatsPerRun`, whole blocks: from a
/// file, into its part of the staging buffer, where the transform finds them in cache).
func transformWeightsInBlocks<Runs: WeightRuns>(
    _ weights: Runs, floatsPerBlock: Int, filterScales: [Float]?, count: Int, blocks: Int,
    _ transform: @escaping @Sendable (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, Int, Int) -> Float
) throws(Runs.Failure) -> (values: [Float], largestScaledWeight: Float) {
    var largestBits: UInt32 = 0
    var failure: Runs.Failure?
    let values = [Float](unsafeUninitializedCapacity: count) { u, initialized in
        // A worker per 2 MB of output: backing fresh memory is most of the cost.
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, blocks, count / (512 << 10)))
        let output = UncheckedSendablePointer(pointer: u.baseAddress!)
        // A worker's blocks are not one contiguous run of the output, so the output is backed
        // in contiguous shares first.
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let first = count * worker / workers, end = count * (worker + 1) / workers
            _ = swiftdarknet_prefault_write(output.pointer + first, (end - first) * MemoryLayout<Float>.size)
        }
        let runBlocks = max(1, weights.floatsPerRun / floatsPerBlock)
        let staging = weights.stagingBuffer(floats: workers * runBlocks * floatsPerBlock)
            .map { UncheckedSendablePointer(pointer: $0) }
        var largest = [UInt32](repeating: 0, count: workers)
        var failures = [Runs.Failure?](repeating: nil, count: workers)
        largest.withUnsafeMutableBufferPointer { largest in
            failures.withUnsafeMutableBufferPointer { failures in
                let largestPointer = UncheckedSendablePointer(pointer: largest.baseAddress!)
                let failuresPointer = UncheckedSendablePointer(pointer: failures.baseAddress!)
                func run(_ scales: UnsafePointer<Float>?) {
                    let scalesPointer = scales.map { UncheckedSendablePointer(pointer: UnsafeMutablePointer(mutating: $0)) }
                    DispatchQueue.concurrentPerform(iterations: workers) { worker in
                        let end = blocks * (worker + 1) / workers
                        var block = blocks * worker / workers
                        while block < end {
                            let length = min(runBlocks, end - block)
                            let floats = block * floatsPerBlock..<min((block + length) * floatsPerBlock, weights.count)
                            switch weights.floats(floats, staging: staging.map { $0.pointer + worker * runBlocks * floatsPerBlock }) {
                            case .success(let input):
                                let magnitude = transform(input, scalesPointer?.pointer, output.pointer, block, length)
                                // By bits: NaN and infinity above every finite magnitude, as the kernel compares them.
                                largestPointer.pointer[worker] = max(largestPointer.pointer[worker], magnitude.bitPattern)
                            case .failure(let error):
                                failuresPointer.pointer[worker] = error
                                return
                            }
                            block += length
                        }
                    }
                }
                if let filterScales {
                    filterScales.withUnsafeBufferPointer { run($0.baseAddress!) }
                } else {
                    run(nil)
                }
            }
        }
        largestBits = largest.max() ?? 0
        failure = failures.lazy.compactMap { $0 }.min(by: weights.reportsFirst)  // where the file first fell short
        initialized = count
    }
    if let failure { throw failure }
    return (values, Float(bitPattern: largestBits))
}

/// A pointer handed to `concurrentPerform` workers that each touch a disjoint part of it.
private struct UncheckedSendablePointer<Pointee>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Pointee>
}
