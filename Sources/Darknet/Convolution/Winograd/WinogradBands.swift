extension ConvolutionAlgorithm {
    /// Winograd F(4x4, 3x3) for large outputs, with the tile-major product kernel on a band of
    /// tile rows at a time: each band's transformed input and products stay in the thread's
    /// cache, where the 36 GEMMs' would stream through memory (104x104 and up).
    public static let winogradBands = ConvolutionAlgorithm("winograd bands", winograd: true)
}

/// `.winogradBands`: F(4x4, 3x3), the input transform, tile-major products and output transform
/// of one band of tile rows after another, the band's transformed input and products in the
/// worker's scratch (after the transform scratch), so they never leave its cache.
package struct WinogradBands: WinogradMethod {
    package static var algorithm: ConvolutionAlgorithm { .winogradBands }
    package static var tile: WinogradWeightTransform.Tile { .f43 }
    package static var products: WinogradDriver.Products { .tileMajor }

    /// Bytes of transformed input and products one band aims at: with the weights, about what
    /// one core's L2 holds.
    static let bandBytes = 512 << 10
    /// Largest F(4x4, 3x3) weights (bytes) the planner takes this path for: every band reads all
    /// of them, so they have to stay in L2 beside the band (104x104 64 -> 128: 1.2 MB).
    static let weightLimit = 2 << 20
    /// Largest F(4x4, 3x3) weights (bytes) the planner takes this path for on outputs of 52x52
    /// and more where a band of one tile row fits the core's L2 (`oneRowFitsL2`): every band
    /// reads the weights from L3 then, while its own transformed input and products stay in L2,
    /// and that beats the whole-layer paths, whose transformed input and products go through L3
    /// (YOLOv3's 52x52 128 -> 256, 4.5 MiB of weights: 5.0 against 6.0 ms, Benchmarks/PERFORMANCE.md).
    static let largeWeightLimit = 8 << 20
    /// The L2 assumed where the system does not say (`CPUFeatures.l2CacheBytes` nil): the
    /// smallest of the x86-64 and arm64 server cores this is planned for.
    static let assumedL2Bytes = 512 << 10

    /// Whether one band of a single tile row of `candidate` takes at most three quarters of the
    /// core's L2 (the rest for the weights streaming past it): 702 KiB for YOLOv3's 52x52 128 ->
    /// 256, which a 1 MiB L2 holds and a 512 KiB one does not.
    static func oneRowFitsL2(_ candidate: ConvolutionCandidate) -> Bool {
        let l2 = candidate.cpu.l2CacheBytes ?? assumedL2Bytes
        let bytes = WinogradBands(candidate).bandFloats(tileRows: 1) * MemoryLayout<Float>.size
        return bytes <= l2 / 4 * 3
    }

    package let driver: WinogradDriver
    package let kernels: VectorKernels

    package init(driver: WinogradDriver, kernels: VectorKernels) {
        self.driver = driver
        self.kernels = kernels
    }

    /// Tile rows per band: as many as fit `bandBytes`, at least one.
    var bandTileRows: Int {
        let perRow = bandFloats(tileRows: 1) * MemoryLayout<Float>.size
        return max(1, min(driver.tileCounts.rows, Self.bandBytes / max(perRow, 1)))
    }

    /// Floats of one band's transformed input and products.
    func bandFloats(tileRows: Int) -> Int {
        saturatingProduct(WinogradF43.elements, tileRows, driver.tileCounts.columns,
                          driver.channels + WinogradF43.paddedFilters(driver.filters))
    }

    /// Each band in its thread's scratch.
    package var workspaceCount: Int { 0 }
    /// The transform scratch and one band.
    package var scratchCount: Int { driver.scratchCount + bandFloats(tileRows: bandTileRows) }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let shapes = driver.shapes, height = shapes.output.height, width = shapes.output.width, inputShape = shapes.input
        let (rows, columns) = driver.tileCounts
        let channels = driver.channels, filters = driver.filters, padded = WinogradF43.paddedFilters(filters)
        let rowsPerBand = bandTileRows, bands = (rows + rowsPerBand - 1) / rowsPerBand
        let transformScratch = driver.scratchCount, activation = shapes.conv.activation
        let epilogue = SlidingWindowConvolution.fusedEpilogue(for: activation)
        let functions = buffers.kernels.functions, kernels = buffers.kernels
        let scratch = buffers.scratch, stride = buffers.scratchStride, input = buffers.input, output = buffers.output
        let residual = buffers.residual
        buffers.split(bands) { range, worker in
            let workerScratch = scratch + worker * stride
            let transformed = workerScratch + transformScratch
            let products = transformed + WinogradF43.elements * rowsPerBand * columns * channels
            for band in range {
                let first = band * rowsPerBand, count = min(rows - first, rowsPerBand)
                functions.pointee.winograd_input(input, channels, inputShape.height, inputShape.width, first, count,
                                                 columns, Self.tile.rawValue, transformed, workerScratch, 0, channels)
                functions.pointee.winograd_products_tile_major(weights, transformed, products, channels, padded,
                                                               count * columns, 0, WinogradF43.elements)
                // With the activation in the kernel, a fused shortcut's residual is added there too.
                functions.pointee.winograd_output_tile_major(products, padded, height, width, first, count, columns,
                                                             Self.tile.rawValue, biases, epilogue ?? 0, output,
                                                             epilogue != nil ? residual : nil, 0, filters)
                if epilogue != nil { continue }
                // The band's rows of every filter: the activation the kernel did not apply, and the
                // fused shortcut's residual while the band is still in cache.
                let firstRow = first * 4, outputRows = min(height, (first + count) * 4) - firstRow
                for f in 0..<filters {
                    let at = f * shapes.output.planeSize + firstRow * width
                    if epilogue == nil { kernels.activate(output + at, count: outputRows * width, activation: activation) }
                    if let residual { kernels.addInPlace(residual + at, count: outputRows * width, into: output + at) }
                }
            }
        }
    }
}
