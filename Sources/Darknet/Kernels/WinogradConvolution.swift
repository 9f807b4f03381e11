/// A 3x3, stride-1 "same" convolution by one of the Winograd paths, as the forward pass runs it
/// (and the micro-benchmarks time it): input transform (split by channels), the element-wise
/// products (split by element) — 36 GEMMs for `.winograd`, the register-blocked tile-major kernel
/// that reads each transformed weight once for `.winogradFewTiles` and `.winogradF23` — then the
/// output transform with bias and leaky / ReLU fused (split by filter).
package struct WinogradConvolution {
    /// `.winograd`, `.winogradFewTiles` or `.winogradF23`.
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
        default: return WinogradF43.workspaceCount(channels: channels, filters: filters, height: height, width: width)
        }
    }

    /// Scratch floats each thread needs for the transforms.
    package var scratchCount: Int {
        algorithm == .winogradF23 ? WinogradF23.scratchCount(width: outputShape.width)
                                  : WinogradF43.scratchCount(width: outputShape.width)
    }

    /// Computes the convolution of `input` with `weights` transformed for `algorithm` into
    /// `output`. Worker `w` uses the `scratchCount` floats at `scratch + w * scratchStride`;
    /// `parallel(count, body)` runs `body(range, worker)` over chunks of `0..<count`.
    package func run(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
                     output: UnsafeMutablePointer<Float>, workspace: UnsafeMutablePointer<Float>,
                     scratch: UnsafeMutablePointer<Float>, scratchStride: Int,
                     parallel: (Int, (Range<Int>, Int) -> Void) -> Void) {
        let f23 = algorithm == .winogradF23
        let height = outputShape.height, width = outputShape.width
        let (rows, columns) = f23 ? WinogradF23.tileCounts(height: height, width: width)
                                  : WinogradF43.tileCounts(height: height, width: width)
        let elements = f23 ? WinogradF23.elements : WinogradF43.elements
        let tiles = rows * columns
        let channels = inputShape.channels, filters = outputShape.channels
        let transformed = workspace
        let products = workspace + elements * channels * tiles
        parallel(channels) { range, worker in
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
        parallel(elements) { elements, _ in
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
        parallel(filters) { range, worker in
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
}
