extension ConvolutionAlgorithm {
    /// Winograd F(2x2, 3x3) with the element-wise products in bfloat16, summed in float32
    /// (`BFloat16WinogradF23`).
    public static let bfloat16WinogradF23 = ConvolutionAlgorithm("bf16 winograd F(2x2,3x3)", winograd: true,
                                                                 arithmetic: .bfloat16)
}

/// `.bfloat16WinogradF23`: a 3x3 "same" convolution as F(2x2, 3x3) whose 16 element-wise
/// products run on the bfloat16 GEMM (`ReducedKernels`), for outputs up to 38x38 (13x13 in
/// BFDOT's arithmetic: `ReducedConvolutionShapes`), where it beats float32's Winograd and the
/// bfloat16 GEMM does 9 products per output.
///
/// The transforms stay in float32 (`WinogradDriver`): the input transform, then for each element
/// its transformed tiles rounded to pairs of channels (`[tiles][channel pairs]`), multiplied by
/// that element's transformed weights (rounded to pairs at load, `[panels][channel pairs][48
/// filters]`), into the tile-major products the float32 output transform reads. With points 0,
/// ±1 and infinity the transforms only add, subtract and halve, so rounding the transformed
/// operands stays near the bfloat16 GEMM's rounding, where F(4x4, 3x3)'s larger constants
/// amplify it (Benchmarks/PERFORMANCE.md, "bfloat16"). Tiles take the GEMM's broadcast rows and
/// filters its vector columns: 13x13 has 49 tiles, which as columns would fill a 48-wide tile
/// and waste most of a second.
///
/// Every output is summed in the same order whatever the thread count.
package struct BFloat16WinogradF23: FloatConvolutionMethod, RunsReducedKernels {
    package static var algorithm: ConvolutionAlgorithm { .bfloat16WinogradF23 }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool {
        candidate.arithmetic == .bfloat16 && candidate.reducedKernels?.arithmetic == .bfloat16
            && candidate.isWinogradShape
    }

    let shapes: ConvolutionShapes
    /// The kernel set of the products.
    package let kernels: ReducedKernels
    /// The float32 set of the weight transform at load (a run's transforms take the session's).
    let vectorKernels: VectorKernels

    package init(_ candidate: ConvolutionCandidate) {
        shapes = candidate.shapes
        kernels = candidate.reducedKernels ?? .portable
        vectorKernels = candidate.kernels
    }

    /// Filters per panel of weights: one GEMM tile's width, so that the tile streams its panel's
    /// 256 pairs (one K block) x 48 filters, 48 KiB, from one contiguous run instead of three
    /// cache lines a panel's row apart per pair (wider panels measured slower: PERFORMANCE.md).
    static let panelWidth = 48

    private var driver: WinogradDriver { WinogradDriver(shapes: shapes, tile: .f23, products: .tileMajor) }
    private var elements: Int { WinogradF23.elements }
    private var channels: Int { shapes.input.channels }
    private var channelPairs: Int { (channels + 1) / 2 }
    private var tiles: Int {
        let (rows, columns) = driver.tileCounts
        return rows * columns
    }
    private var paddedFilters: Int { WinogradF43.paddedFilters(shapes.conv.filters) }

    /// The transformed input (floats), its rows of pairs (a 32-bit word each) and the products.
    package var workspaceCount: Int {
        saturatingProduct(elements, tiles, channels + channelPairs + paddedFilters)
    }
    /// The input transform's scratch, or one element's pairs before they are transposed.
    package var scratchCount: Int { max(driver.scratchCount, saturatingProduct(channelPairs, tiles)) }
    /// The transformed weights as pairs, `elements x channel pairs x padded filters` words.
    package var weightCount: Int { saturatingProduct(elements, channelPairs, paddedFilters) }

    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        let filters = shapes.conv.filters, channels = channels, pairs = channelPairs, padded = paddedFilters
        let transform = WinogradWeightTransform(tile: .f23, channelMajor: false, filters: filters, channels: channels,
                                                kernels: vectorKernels)
        let (transformed, biases) = try source.transformed(by: transform)  // [elements][filters][channels]
        var rows = [UInt32](repeating: 0, count: padded * pairs)  // one element's [filters][pairs], zero past the last filter
        var packed = [Float](repeating: 0, count: weightCount)
        let packWeights = kernels.functions.pointee.pack_weights
        transformed.withUnsafeBufferPointer { transformed in
            rows.withUnsafeMutableBufferPointer { rows in
                packed.withUnsafeMutableBytes { bytes in
                    let words = bytes.baseAddress!.assumingMemoryBound(to: UInt32.self)
                    for element in 0..<elements {
                        packWeights(transformed.baseAddress! + element * filters * channels, filters, channels, rows.baseAddress!)
                        for panel in stride(from: 0, to: padded, by: Self.panelWidth) {
                            let width = min(Self.panelWidth, padded - panel)
                            let out = words + (element * padded + panel) * pairs
                            for pair in 0..<pairs {
                                for filter in 0..<width { out[pair * width + filter] = rows[(panel + filter) * pairs + pair] }
                            }
                        }
                    }
                }
            }
        }
        return (packed, biases)
    }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let elements = elements, channels = channels, pairs = channelPairs, tiles = tiles, padded = paddedFilters
        let driver = driver, functions = kernels.functions.pointee
        let transformed = buffers.workspace
        let rows = UnsafeMutableRawPointer(transformed + elements * channels * tiles).assumingMemoryBound(to: UInt32.self)
        let products = transformed + elements * tiles * (channels + pairs)
        let packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self)
        let scratch = UnsafeMutableRawPointer(buffers.scratch).assumingMemoryBound(to: UInt32.self), stride = buffers.scratchStride
        driver.transformInput(buffers, into: transformed)
        buffers.split(elements) { range, worker in
            let columns = scratch + worker * stride
            for element in range {
                // The element's tiles as rows of channel pairs: packed as [pairs][tiles], then transposed.
                functions.pack(transformed + element * channels * tiles, channels, tiles, tiles, columns)
                let elementRows = rows + element * tiles * pairs
                Self.transpose(columns, rows: pairs, columns: tiles, into: elementRows)
                for panel in Swift.stride(from: 0, to: padded, by: Self.panelWidth) {
                    let width = min(Self.panelWidth, padded - panel)
                    functions.gemm(elementRows, tiles, pairs, packedWeights + (element * padded + panel) * pairs, width,
                                   products + element * tiles * padded + panel, padded)
                }
            }
        }
        driver.transformOutput(products, biases: biases, buffers)
    }

    /// `source`'s `rows x columns` words into `columns x rows` at `destination`, in blocks of 8
    /// columns, so that each row's 32 bytes are read at once and each destination row is written
    /// while its cache line is held.
    static func transpose(_ source: UnsafePointer<UInt32>, rows: Int, columns: Int, into destination: UnsafeMutablePointer<UInt32>) {
        let block = 8
        for first in Swift.stride(from: 0, to: columns, by: block) {
            let count = min(block, columns &- first)
            for row in 0..<rows {
                let from = source + (row &* columns &+ first)
                var to = destination + (first &* rows &+ row)
                for column in 0..<count {
                    to.pointee = from[column]
                    to += rows
                }
            }
        }
    }
}
