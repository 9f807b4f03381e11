import CDarknetKernels
import Dispatch
import Foundation

/// Winograd's weight transform `G g Gᵀ` of a layer's 3x3 kernels into one algorithm's layout
/// (`WinogradF43`, `WinogradF23`), batch norm folded in on the way: loading runs it on the
/// weights a run at a time as they are read (`ConvolutionWeightSource.transformed(by:)`).
package struct WinogradWeightTransform: WeightTransform {
    /// The input tile's side: 6 for F(4x4, 3x3) (36 elements), 5 for F(3x3, 3x3) (25), 4 for
    /// F(2x2, 3x3) (16).
    package enum Tile: Int32, Sendable {
        case f43 = 6, f33 = 5, f23 = 4

        /// Outputs per tile side.
        var outputs: Int { Int(rawValue) - 2 }
        /// Elements per transformed tile.
        var elements: Int { Int(rawValue * rawValue) }

        /// Tiles needed to cover an output of `height x width`.
        func tileCounts(height: Int, width: Int) -> (rows: Int, columns: Int) {
            ((height + outputs - 1) / outputs, (width + outputs - 1) / outputs)
        }
    }

    let tile: Tile
    /// Channel-major in blocks of 16 filters (the tile-major paths; F(2x2, 3x3) always), else
    /// filter-major (the 36 GEMMs).
    let channelMajor: Bool
    let filters: Int
    let channels: Int
    let kernels: VectorKernels

    /// F(2x2, 3x3)'s and F(3x3, 3x3)'s G have row sums of |g| up to 1.5 (F(4x4, 3x3)'s up to 1),
    /// so a scaled weight grows at most 2.25-fold.
    package var growth: Double { 2.25 }

    var elements: Int { Int(tile.rawValue * tile.rawValue) }

    /// Floats of the transformed weights.
    var count: Int {
        saturatingProduct(elements, channels, channelMajor ? WinogradF43.paddedFilters(filters) : filters)
    }

    package func apply<Runs: WeightRuns>(_ weights: Runs, filterScales: [Float]?) throws(Runs.Failure)
        -> (values: [Float], largestScaledWeight: Float) {
        let major: Int32 = channelMajor ? 1 : 0
        let (filters, channels, tile, transform) = (filters, channels, tile.rawValue, kernels.functions.pointee.winograd_weights)
        // A block is 16 kernels, or 16 filters when channel-major (see the kernel).
        return try transformWeightsInBlocks(weights, floatsPerBlock: 16 * 9 * (channelMajor ? channels : 1),
                                            filterScales: filterScales, count: count,
                                            blocks: swiftdarknet_winograd_weight_blocks(filters, channels, major)) { g, scales, u, first, blocks in
            transform(g, scales, filters, channels, tile, major, u, first, blocks)
        }
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
        let workers = max(1, min(AvailableCores.count, blocks, count / (512 << 10)))
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
