extension ConvolutionAlgorithm {
    /// Winograd F(2x2, 3x3) with the element-wise products in bfloat16, summed in float32
    /// (`BFloat16WinogradF23`).
    public static let bfloat16WinogradF23 = ConvolutionAlgorithm("bf16 winograd F(2x2,3x3)", winograd: true,
                                                                 arithmetic: .bfloat16)
    /// Winograd F(3x3, 3x3) with the element-wise products in bfloat16, summed in float32
    /// (`BFloat16WinogradF33`).
    public static let bfloat16WinogradF33 = ConvolutionAlgorithm("bf16 winograd F(3x3,3x3)", winograd: true,
                                                                 arithmetic: .bfloat16)
}

/// The tile of a `BFloat16Winograd`.
package protocol BFloat16WinogradTile: Sendable {
    static var tile: WinogradWeightTransform.Tile { get }
    static var algorithm: ConvolutionAlgorithm { get }
    /// Whether a layer runs a band of tile rows at a time (large outputs), else whole.
    static var runsInBands: Bool { get }
}

/// F(2x2, 3x3): 16 products per 4 outputs.
package enum BFloat16F23: BFloat16WinogradTile {
    package static var tile: WinogradWeightTransform.Tile { .f23 }
    package static var algorithm: ConvolutionAlgorithm { .bfloat16WinogradF23 }
    package static var runsInBands: Bool { false }
}

/// F(3x3, 3x3) (points ±1/2, ±3/2 and infinity): 25 products per 9 outputs.
package enum BFloat16F33: BFloat16WinogradTile {
    package static var tile: WinogradWeightTransform.Tile { .f33 }
    package static var algorithm: ConvolutionAlgorithm { .bfloat16WinogradF33 }
    package static var runsInBands: Bool { true }
}

/// `.bfloat16WinogradF23`: bfloat16's Winograd below 20x20, and up to 38x38 over fewer channels
/// than F(3x3, 3x3) takes (13x13 in BFDOT's arithmetic: `ReducedConvolutionShapes`), where it
/// beats float32's Winograd and the bfloat16 GEMM does 9 products per output.
package typealias BFloat16WinogradF23 = BFloat16Winograd<BFloat16F23>
/// `.bfloat16WinogradF33`: bfloat16's Winograd from 20x20 to 104x104 outputs from 128 channels, in
/// VDPBF16PS's arithmetic (`ReducedConvolutionShapes.takenByF33`): fewer products than F(2x2,
/// 3x3), and fewer than float32's F(4x4, 3x3) at the bfloat16 GEMM's doubled rate.
package typealias BFloat16WinogradF33 = BFloat16Winograd<BFloat16F33>

/// A 3x3 "same" convolution as Winograd F(2x2, 3x3) or F(3x3, 3x3) (`Tile`) whose element-wise
/// products run on the bfloat16 GEMM (`ReducedKernels`).
///
/// The transforms stay in float32 (`WinogradDriver`): the input transform, then for each element
/// its transformed tiles rounded to pairs of channels (`[tiles][channel pairs]`), multiplied by
/// that element's transformed weights (rounded to pairs at load, `[panels][channel pairs][48
/// filters]`), into the tile-major products the float32 output transform reads. With F(2x2,
/// 3x3)'s points 0, ±1 and infinity and F(3x3, 3x3)'s ±1/2, ±3/2 and infinity, rounding the
/// transformed operands stays near the bfloat16 GEMM's rounding (1.2-1.6x and 1.8-2.5x its
/// error), where F(4x4, 3x3)'s larger constants amplify it 5-7x and added a detection
/// (Benchmarks/PERFORMANCE.md, "bfloat16", "bfloat16 F(3x3, 3x3)"). Tiles take the GEMM's broadcast rows
/// and filters its vector columns: 13x13 has 49 tiles, which as columns would fill a 48-wide
/// tile and waste most of a second.
///
/// Every output is summed in the same order whatever the thread count.
package struct BFloat16Winograd<Tile: BFloat16WinogradTile>: FloatConvolutionMethod, RunsReducedKernels {
    package static var algorithm: ConvolutionAlgorithm { Tile.algorithm }

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
    static var panelWidth: Int { 48 }

    private var driver: WinogradDriver { WinogradDriver(shapes: shapes, tile: Tile.tile, products: .tileMajor) }
    private var elements: Int { Tile.tile.elements }
    private var channels: Int { shapes.input.channels }
    private var channelPairs: Int { (channels + 1) / 2 }
    private var tiles: Int {
        let (rows, columns) = driver.tileCounts
        return rows * columns
    }
    private var paddedFilters: Int { WinogradF43.paddedFilters(shapes.conv.filters) }

    /// Bytes of transformed input and products a band aims at (`runsInBands`): with an element's
    /// weights, what one core's L2 holds.
    static var bandBytes: Int { 512 << 10 }

    /// Tile rows per band: as many as fit `bandBytes`, at least one (every row without bands).
    var bandTileRows: Int {
        let (rows, columns) = driver.tileCounts
        guard Tile.runsInBands else { return rows }
        let perRow = saturatingProduct(elements, columns, channels + paddedFilters, MemoryLayout<Float>.size)
        return max(1, min(rows, Self.bandBytes / max(perRow, 1)))
    }
    private var bandTiles: Int { bandTileRows * driver.tileCounts.columns }

    /// Without bands: the transformed input (floats), its rows of pairs (a 32-bit word each) and
    /// the products. In bands: none (each band is in its thread's scratch).
    package var workspaceCount: Int {
        Tile.runsInBands ? 0 : saturatingProduct(elements, tiles, channels + channelPairs + paddedFilters)
    }
    /// Without bands: the input transform's scratch, or one element's pairs before they are
    /// transposed. In bands: the input transform's scratch, then the band's transformed input and
    /// products, and one element's pairs before and after they are transposed.
    package var scratchCount: Int {
        guard Tile.runsInBands else { return max(driver.scratchCount, saturatingProduct(channelPairs, tiles)) }
        let band = saturatingProduct(bandTiles, saturatingProduct(elements, channels + paddedFilters) + 2 * channelPairs)
        let (total, overflow) = driver.scratchCount.addingReportingOverflow(band)
        return overflow ? .max : total
    }
    /// The transformed weights as pairs, `elements x channel pairs x padded filters` words.
    package var weightCount: Int { saturatingProduct(elements, channelPairs, paddedFilters) }

    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        let filters = shapes.conv.filters, channels = channels, pairs = channelPairs, padded = paddedFilters
        let transform = WinogradWeightTransform(tile: Tile.tile, channelMajor: false, filters: filters, channels: channels,
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
        if Tile.runsInBands {
            runInBands(weights: weights, biases: biases, buffers)
            return
        }
        let elements = elements, channels = channels, pairs = channelPairs, tiles = tiles, padded = paddedFilters
        let panelCount = panelCount, transformed = buffers.workspace
        let rows = UnsafeMutableRawPointer(transformed + elements * channels * tiles).assumingMemoryBound(to: UInt32.self)
        let products = transformed + elements * tiles * (channels + pairs)
        let packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self)
        let scratch = UnsafeMutableRawPointer(buffers.scratch).assumingMemoryBound(to: UInt32.self), stride = buffers.scratchStride
        driver.transformInput(buffers, into: transformed)
        buffers.split(elements) { range, worker in
            for element in range {
                multiply(transformed + element * channels * tiles, tiles: tiles, element: element, panels: 0..<panelCount,
                         weights: packedWeights, columns: scratch + worker * stride, rows: rows + element * tiles * pairs,
                         into: products + element * tiles * padded)
            }
        }
        driver.transformOutput(products, biases: biases, buffers)
    }

    /// The products of one element's transformed `tiles` (`[channels][tiles]` floats): rounded to
    /// channel pairs in `columns`, transposed into `rows` (`[tiles][pairs]`), multiplied by the
    /// element's weights of `panels` (48 filters each) into `products` (`[tiles][padded]`).
    private func multiply(_ transformed: UnsafePointer<Float>, tiles: Int, element: Int, panels: Range<Int>,
                          weights: UnsafePointer<UInt32>, columns: UnsafeMutablePointer<UInt32>,
                          rows: UnsafeMutablePointer<UInt32>, into products: UnsafeMutablePointer<Float>) {
        let functions = kernels.functions.pointee, pairs = channelPairs, padded = paddedFilters
        functions.pack(transformed, channels, tiles, tiles, columns)
        Self.transpose(columns, rows: pairs, columns: tiles, into: rows)
        for panel in panels.lazy.map({ $0 * Self.panelWidth }) {
            let width = min(Self.panelWidth, padded - panel)
            functions.gemm(rows, tiles, pairs, weights + (element * padded + panel) * pairs, width, products + panel, padded)
        }
    }

    /// The weights' panels of 48 filters.
    private var panelCount: Int { (paddedFilters + Self.panelWidth - 1) / Self.panelWidth }

    /// The layer a band of tile rows at a time in each thread's scratch, so that a band's
    /// transformed input and products stay in its cache where the whole layer's would go through
    /// memory. The threads take whole bands, as many as divide evenly among them; each band left
    /// over is shared, every thread transforming its input and computing its share of the filter
    /// panels (26x26: 9 bands of a tile row, for two threads 4 each and one shared, not 5 and 4).
    private func runInBands(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let bands = (driver.tileCounts.rows + bandTileRows - 1) / bandTileRows, panelCount = panelCount
        let whole = bands / buffers.split.threads * buffers.split.threads
        buffers.split(whole) { range, worker in
            for band in range { runBand(band, panels: 0..<panelCount, worker: worker, weights: weights, biases: biases, buffers) }
        }
        for band in whole..<bands {
            buffers.split(panelCount) { panels, worker in
                runBand(band, panels: panels, worker: worker, weights: weights, biases: biases, buffers)
            }
        }
    }

    /// Band `band`'s input transform, its elements' products of `panels` and their output
    /// transform (with bias, activation and a fused shortcut's residual), in `worker`'s scratch.
    private func runBand(_ band: Int, panels: Range<Int>, worker: Int, weights: UnsafePointer<Float>,
                         biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let shapes = shapes, height = shapes.output.height, width = shapes.output.width, inputShape = shapes.input
        let (tileRows, tileColumns) = driver.tileCounts, rowsPerBand = bandTileRows, bandTiles = bandTiles
        let elements = elements, channels = channels, pairs = channelPairs, padded = paddedFilters
        let tile = Tile.tile.rawValue, activation = shapes.conv.activation
        let epilogue = SlidingWindowConvolution.fusedEpilogue(for: activation)
        let functions = buffers.kernels.functions, vectors = buffers.kernels, output = buffers.output
        let packedWeights = UnsafeRawPointer(weights).assumingMemoryBound(to: UInt32.self)
        let workerScratch = buffers.scratch + worker * buffers.scratchStride
        let transformed = workerScratch + driver.scratchCount
        let products = transformed + elements * bandTiles * channels
        let columns = UnsafeMutableRawPointer(products + elements * bandTiles * padded).assumingMemoryBound(to: UInt32.self)
        let rows = columns + pairs * bandTiles
        let first = band * rowsPerBand, count = min(tileRows - first, rowsPerBand), tiles = count * tileColumns
        let filters = panels.lowerBound * Self.panelWidth..<min(shapes.conv.filters, panels.upperBound * Self.panelWidth)
        guard !filters.isEmpty else { return }
        functions.pointee.winograd_input(buffers.input, channels, inputShape.height, inputShape.width, first, count,
                                         tileColumns, tile, transformed, workerScratch, 0, channels)
        for element in 0..<elements {
            multiply(transformed + element * channels * tiles, tiles: tiles, element: element, panels: panels,
                     weights: packedWeights, columns: columns, rows: rows, into: products + element * tiles * padded)
        }
        // With the activation in the kernel, a fused shortcut's residual is added there too.
        functions.pointee.winograd_output_tile_major(products, padded, height, width, first, count, tileColumns, tile, biases,
                                                     epilogue ?? 0, output, epilogue != nil ? buffers.residual : nil,
                                                     filters.lowerBound, filters.count)
        guard epilogue == nil else { return }
        // The band's rows of its filters: the activation the kernel did not apply, then the fused
        // shortcut's residual while they are still in cache.
        let outputs = Tile.tile.outputs, firstRow = first * outputs
        let outputRows = min(height, (first + count) * outputs) - firstRow
        for f in filters {
            let at = f * shapes.output.planeSize + firstRow * width
            vectors.activate(output + at, count: outputRows * width, activation: activation)
            if let residual = buffers.residual { vectors.addInPlace(residual + at, count: outputRows * width, into: output + at) }
        }
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
