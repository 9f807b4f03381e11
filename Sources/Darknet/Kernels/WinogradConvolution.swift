/// A 3x3, stride-1 "same" convolution by one of the Winograd paths, as the forward pass runs it
/// (and the micro-benchmarks time it): input transform (split by channels), the element-wise
/// products (split by element) — 36 GEMMs for `.winograd`, the register-blocked tile-major kernel
/// that reads each transformed weight once for `.winogradFewTiles` and `.winogradF23` — then the
/// output transform with bias and leaky / ReLU fused (split by filter). `.winogradBands` runs
/// the tile-major steps a band of tile rows at a time instead, each band in its thread's scratch
/// (split by band).
package struct WinogradConvolution: ConvolutionMethod {
    /// Bytes of transformed input and products one band aims at: with the weights, about what
    /// one core's L2 holds.
    static let bandBytes = 512 << 10

    /// `.winograd`, `.winogradFewTiles`, `.winogradF23` or `.winogradBands`.
    package let algorithm: ConvolutionAlgorithm
    package let inputShape: TensorShape
    package let outputShape: TensorShape
    package let activation: Activation

    package init(algorithm: ConvolutionAlgorithm, inputShape: TensorShape, outputShape: TensorShape,
                 activation: Activation) {
        precondition(algorithm.isWinograd, "\(algorithm) is not a Winograd path")
        self.algorithm = algorithm
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.activation = activation
    }

    /// Workspace floats the transformed input and the products take.
    package var workspaceCount: Int {
        let channels = inputShape.channels, filters = outputShape.channels
        let height = outputShape.height, width = outputShape.width
        switch algorithm {
        case .winogradF23: return WinogradF23.workspaceCount(channels: channels, filters: filters, height: height, width: width)
        case .winogradFewTiles:
            return WinogradF43.tileMajorWorkspaceCount(channels: channels, filters: filters, height: height, width: width)
        case .winogradBands: return 0  // each band in its thread's scratch
        default: return WinogradF43.workspaceCount(channels: channels, filters: filters, height: height, width: width)
        }
    }

    /// Scratch floats each thread needs for the transforms (and for `.winogradBands`, its band).
    package var scratchCount: Int {
        switch algorithm {
        case .winogradF23: WinogradF23.scratchCount(width: outputShape.width)
        case .winogradBands: WinogradF43.scratchCount(width: outputShape.width) + bandFloats(tileRows: bandTileRows)
        default: WinogradF43.scratchCount(width: outputShape.width)
        }
    }

    /// Tile rows per band of `.winogradBands`: as many as fit `bandBytes`, at least one.
    var bandTileRows: Int {
        let (rows, _) = WinogradF43.tileCounts(height: outputShape.height, width: outputShape.width)
        let perRow = bandFloats(tileRows: 1) * MemoryLayout<Float>.size
        return max(1, min(rows, Self.bandBytes / max(perRow, 1)))
    }

    /// Floats of one band's transformed input and products.
    private func bandFloats(tileRows: Int) -> Int {
        let (_, columns) = WinogradF43.tileCounts(height: outputShape.height, width: outputShape.width)
        return WinogradF43.elements * tileRows * columns
            * (inputShape.channels + WinogradF43.paddedFilters(outputShape.channels))
    }

    /// Computes the convolution of `input` with `weights` transformed for `algorithm` into
    /// `output`. Worker `w` uses the `scratchCount` floats at `scratch + w * scratchStride`;
    /// `split` spreads each step over the workers.
    package func run(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
                     output: UnsafeMutablePointer<Float>, workspace: UnsafeMutablePointer<Float>,
                     scratch: UnsafeMutablePointer<Float>, scratchStride: Int,
                     split: ThreadSplit) {
        if algorithm == .winogradBands {
            runBands(input: input, weights: weights, biases: biases, output: output, scratch: scratch,
                     scratchStride: scratchStride, split: split)
            return
        }
        let f23 = algorithm == .winogradF23
        let height = outputShape.height, width = outputShape.width
        let (rows, columns) = f23 ? WinogradF23.tileCounts(height: height, width: width)
                                  : WinogradF43.tileCounts(height: height, width: width)
        let elements = f23 ? WinogradF23.elements : WinogradF43.elements
        let tiles = rows * columns
        let channels = inputShape.channels, filters = outputShape.channels
        let transformed = workspace
        let products = workspace + elements * channels * tiles
        split(channels) { range, worker in
            if f23 {
                WinogradF23.transformInput(input, channels: channels, height: inputShape.height, width: inputShape.width,
                                           tileRows: rows, tileColumns: columns, into: transformed,
                                           scratch: scratch + worker * scratchStride, channelRange: range)
            } else {
                WinogradF43.transformInput(input, channels: channels, height: inputShape.height, width: inputShape.width,
                                           tileRows: rows, tileColumns: columns, into: transformed,
                                           scratch: scratch + worker * scratchStride, channelRange: range)
            }
        }
        split(elements) { elements, _ in
            switch algorithm {
            case .winogradF23, .winogradFewTiles:
                WinogradF43.multiplyTileMajor(weights: weights, input: transformed, into: products, channels: channels,
                                              filters: filters, tiles: tiles, elementRange: elements)
            default:
                for e in elements {
                    BLAS.sgemm(m: filters, n: tiles, k: channels, a: weights + e * filters * channels, lda: channels,
                               b: transformed + e * channels * tiles, ldb: tiles,
                               c: products + e * filters * tiles, ldc: tiles)
                }
            }
        }
        let fused = SlidingWindowConvolution.fusedEpilogue(for: activation)
        split(filters, minimumPiece: 16) { range, worker in  // whole vectors of filters
            switch algorithm {
            case .winogradF23:
                WinogradF23.transformOutput(products, filters: filters, height: height, width: width, tileRows: rows,
                                            tileColumns: columns, biases: biases, epilogue: fused ?? 0, into: output,
                                            filterRange: range)
            case .winogradFewTiles:
                WinogradF43.transformTileMajorOutput(products, filters: filters, height: height, width: width,
                                                     tileRows: rows, tileColumns: columns, biases: biases,
                                                     epilogue: fused ?? 0, into: output, filterRange: range)
            default:
                WinogradF43.transformOutput(products, filters: filters, height: height, width: width, tileRows: rows,
                                            tileColumns: columns, biases: biases, epilogue: fused ?? 0, into: output,
                                            scratch: scratch + worker * scratchStride, filterRange: range)
            }
            if fused == nil {
                activate(output + range.lowerBound * outputShape.planeSize, count: range.count * outputShape.planeSize,
                         activation: activation)
            }
        }
    }

    /// `.winogradBands`: input transform, tile-major products and output transform of one band
    /// of tile rows after another, the band's transformed input and products in the worker's
    /// scratch (after the transform scratch), so they never leave its cache.
    private func runBands(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
                          output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                          scratchStride: Int, split: ThreadSplit) {
        let height = outputShape.height, width = outputShape.width
        let (rows, columns) = WinogradF43.tileCounts(height: height, width: width)
        let channels = inputShape.channels, filters = outputShape.channels
        let rowsPerBand = bandTileRows
        let bands = (rows + rowsPerBand - 1) / rowsPerBand
        let transformScratch = WinogradF43.scratchCount(width: width)
        let epilogue = SlidingWindowConvolution.fusedEpilogue(for: activation)
        split(bands) { range, worker in
            let workerScratch = scratch + worker * scratchStride
            let transformed = workerScratch + transformScratch
            let products = transformed + WinogradF43.elements * rowsPerBand * columns * channels
            for band in range {
                let first = band * rowsPerBand, count = min(rows - first, rowsPerBand)
                WinogradF43.transformInput(input, channels: channels, height: inputShape.height,
                                           width: inputShape.width, firstTileRow: first, tileRows: count,
                                           tileColumns: columns, into: transformed, scratch: workerScratch)
                WinogradF43.multiplyTileMajor(weights: weights, input: transformed, into: products, channels: channels,
                                              filters: filters, tiles: count * columns,
                                              elementRange: 0..<WinogradF43.elements)
                WinogradF43.transformTileMajorOutput(products, filters: filters, height: height, width: width,
                                                     firstTileRow: first, tileRows: count, tileColumns: columns,
                                                     biases: biases, epilogue: epilogue ?? 0, into: output,
                                                     filterRange: 0..<filters)
                if epilogue == nil {
                    let firstRow = first * 4, outputRows = min(height, (first + count) * 4) - firstRow
                    for f in 0..<filters {
                        activate(output + f * outputShape.planeSize + firstRow * width, count: outputRows * width,
                                 activation: activation)
                    }
                }
            }
        }
    }

    package func run(_ buffers: ConvolutionBuffers) {
        run(input: buffers.input, weights: buffers.weights, biases: buffers.biases, output: buffers.output,
            workspace: buffers.workspace, scratch: buffers.scratch, scratchStride: buffers.scratchStride,
            split: buffers.split)
    }

    /// Transformed kernels: `[36][filters][channels]` for `.winograd`, `[36][channels][padded
    /// filters]` for the tile-major F(4x4, 3x3) paths, `[16][channels][padded filters]` for F(2x2, 3x3).
    package var weightCount: Int {
        let filters = outputShape.channels, channels = inputShape.channels
        return switch algorithm {
        case .winogradF23: saturatingProduct(WinogradF23.elements, WinogradF43.paddedFilters(filters), channels)
        case .winogradFewTiles, .winogradBands:
            saturatingProduct(WinogradF43.elements, WinogradF43.paddedFilters(filters), channels)
        default: saturatingProduct(WinogradF43.elements, filters, channels)
        }
    }
}
