/// The steps all four Winograd algorithms share, over a whole layer at once (`WinogradBands`
/// runs the same steps a band of tile rows at a time): the input transform (split over threads by
/// channels), the element-wise products (split by element) and the output transform with bias
/// and activation (split by filter). The algorithms differ in the tile (F(4x4, 3x3) or F(2x2,
/// 3x3)), the products' form (36 BLAS GEMMs, or the register-blocked tile-major kernel that reads
/// each transformed weight once) and hence the weights' layout. bfloat16's F(2x2, 3x3)
/// (`BFloat16WinogradF23`) runs the two transforms around products of its own.
package struct WinogradDriver: Sendable, Equatable {
    /// How the element-wise products are computed.
    package enum Products: Sendable, Equatable {
        /// One BLAS GEMM per element on filter-major weights (`[elements][filters][channels]`),
        /// products `[elements][filters][tiles]`.
        case gemms
        /// The tile-major kernel on channel-major weights, products `[elements][tiles][padded filters]`.
        case tileMajor
    }

    let shapes: ConvolutionShapes
    let tile: WinogradWeightTransform.Tile
    let products: Products

    var channels: Int { shapes.input.channels }
    var filters: Int { shapes.output.channels }
    var elements: Int { tile.elements }
    var tileCounts: (rows: Int, columns: Int) { tile.tileCounts(height: shapes.output.height, width: shapes.output.width) }

    /// The weight transform into this driver's layout.
    func weightTransform(_ kernels: VectorKernels) -> WinogradWeightTransform {
        WinogradWeightTransform(tile: tile, channelMajor: products == .tileMajor, filters: filters, channels: channels,
                                kernels: kernels)
    }

    /// Workspace floats: the transformed input and the products.
    var workspaceCount: Int {
        let (rows, columns) = tileCounts
        let productFilters = products == .gemms ? filters : WinogradF43.paddedFilters(filters)
        return saturatingProduct(elements, rows, columns, channels + productFilters)
    }

    /// Scratch floats each thread needs for the transforms.
    var scratchCount: Int {
        switch tile {
        case .f43: WinogradF43.scratchCount(width: shapes.output.width)
        case .f23: WinogradF23.scratchCount(width: shapes.output.width)
        case .f33:  // the input transform's (winograd.h): width + tile x (outputs x tile columns + 2)
            shapes.output.width + Int(tile.rawValue) * (tile.outputs * tileCounts.columns + 2)
        }
    }

    /// Computes the layer from `weights` in this driver's layout.
    func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let (rows, columns) = tileCounts
        let tiles = rows * columns, elements = elements, channels = channels, filters = filters
        let functions = buffers.kernels.functions
        let transformed = buffers.workspace, products = buffers.workspace + elements * channels * tiles
        let mode = self.products
        transformInput(buffers, into: transformed)
        buffers.split(elements) { range, _ in
            switch mode {
            case .tileMajor:
                functions.pointee.winograd_products_tile_major(weights, transformed, products, channels,
                                                               WinogradF43.paddedFilters(filters), tiles,
                                                               range.lowerBound, range.count)
            case .gemms:
                for e in range {
                    BLAS.sgemm(m: filters, n: tiles, k: channels, a: weights + e * filters * channels, lda: channels,
                               b: transformed + e * channels * tiles, ldb: tiles,
                               c: products + e * filters * tiles, ldc: tiles)
                }
            }
        }
        transformOutput(products, biases: biases, buffers)
    }

    /// The input transform of the whole layer into `transformed`, `[elements][channels][tiles]`,
    /// split over the threads by channels.
    func transformInput(_ buffers: ConvolutionBuffers, into transformed: UnsafeMutablePointer<Float>) {
        let inputShape = shapes.input, (rows, columns) = tileCounts, channels = channels, tile = tile
        let functions = buffers.kernels.functions, scratch = buffers.scratch, stride = buffers.scratchStride
        let input = buffers.input
        buffers.split(channels) { range, worker in
            functions.pointee.winograd_input(input, channels, inputShape.height, inputShape.width, 0, rows, columns,
                                             tile.rawValue, transformed, scratch + worker * stride, range.lowerBound,
                                             range.count)
        }
    }

    /// The output transform of the element-wise `products` in this driver's layout into the
    /// output, with bias and activation, split over the threads by whole vectors of filters. A
    /// fused shortcut's residual is added by the tile-major transform as it stores each tile
    /// when the activation is fused too; otherwise each 16 filters' planes get it added right
    /// after their transform, while they are still in cache.
    func transformOutput(_ products: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let height = shapes.output.height, width = shapes.output.width, (rows, columns) = tileCounts
        let filters = filters, tile = tile, mode = self.products
        let functions = buffers.kernels.functions, scratch = buffers.scratch, stride = buffers.scratchStride
        let output = buffers.output
        let activation = shapes.conv.activation
        let fused = SlidingWindowConvolution.fusedEpilogue(for: activation)
        let tileMajor = tile != .f43 || mode == .tileMajor  // F(4x4, 3x3) in 36 GEMMs otherwise
        let residualInKernel = fused != nil && tileMajor ? buffers.residual : nil
        let residual = residualInKernel == nil ? buffers.residual : nil
        let kernels = buffers.kernels, plane = shapes.output.planeSize
        buffers.split(filters, minimumPiece: 16) { range, worker in  // whole vectors of filters
            // Without a residual to add after the kernel, the worker's filters in one call.
            let chunk = residual == nil ? range.count : 16
            for first in Swift.stride(from: range.lowerBound, to: range.upperBound, by: chunk) {
                let count = min(chunk, range.upperBound - first)
                if tileMajor {
                    functions.pointee.winograd_output_tile_major(products, WinogradF43.paddedFilters(filters), height,
                                                                 width, 0, rows, columns, tile.rawValue, biases,
                                                                 fused ?? 0, output, residualInKernel, first, count)
                } else {
                    functions.pointee.winograd_output(products, filters, height, width, rows, columns, biases,
                                                      fused ?? 0, output, scratch + worker * stride, first, count)
                }
                if fused == nil {
                    kernels.activate(output + first * plane, count: count * plane, activation: activation)
                }
                if let residual {
                    kernels.addInPlace(residual + first * plane, count: count * plane, into: output + first * plane)
                }
            }
        }
    }
}

/// What the four Winograd algorithms share: the shape they compute, the weight transform into
/// their driver's layout straight from the file, and their memory; the three whole-layer ones
/// also their run (`WinogradBands` runs the driver's steps a band at a time).
package protocol WinogradMethod: FloatConvolutionMethod {
    /// F(4x4, 3x3) or F(2x2, 3x3).
    static var tile: WinogradWeightTransform.Tile { get }
    /// The element-wise products' form.
    static var products: WinogradDriver.Products { get }
    var driver: WinogradDriver { get }
    var kernels: VectorKernels { get }
    init(driver: WinogradDriver, kernels: VectorKernels)
}

extension WinogradMethod {
    package static func computes(_ candidate: ConvolutionCandidate) -> Bool { candidate.isWinogradShape }

    package init(_ candidate: ConvolutionCandidate) {
        self.init(driver: WinogradDriver(shapes: candidate.shapes, tile: Self.tile, products: Self.products),
                  kernels: candidate.kernels)
    }

    package var workspaceCount: Int { driver.workspaceCount }
    package var scratchCount: Int { driver.scratchCount }
    package var weightCount: Int { driver.weightTransform(kernels).count }

    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        try source.transformed(by: driver.weightTransform(kernels))
    }

    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        driver.run(weights: weights, biases: biases, buffers)
    }
}

extension ConvolutionCandidate {
    /// Whether a Winograd algorithm computes this convolution: 3x3, stride 1, "same" padding, no
    /// dilation, one group.
    var isWinogradShape: Bool {
        conv.size == 3 && shapes.isUnitStride && conv.dilation == 1 && conv.padding == 1 && conv.groups == 1
    }

    /// F(4x4, 3x3) tiles covering the output.
    var winogradTiles: Int {
        let (rows, columns) = WinogradF43.tileCounts(height: output.height, width: output.width)
        return rows * columns
    }

    /// Bytes of the F(4x4, 3x3) transformed weights (`Int.max` on overflow).
    var winogradWeightBytes: Int {
        saturatingProduct(WinogradF43.elements, WinogradF43.paddedFilters(conv.filters), input.channels,
                          MemoryLayout<Float>.size)
    }
}
