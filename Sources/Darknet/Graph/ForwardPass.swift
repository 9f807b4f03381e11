import Dispatch

/// One forward pass over an arena: a `switch` over each layer's kind calling its kernel.
/// Plans and parameters are read-only; all memory was allocated by the session.
struct ForwardPass {
    let network: Network
    let layout: ArenaLayout
    let arena: UnsafeMutablePointer<Float>
    let workspace: UnsafeMutablePointer<Float>
    let threads: Int

    func run(layerNanoseconds: UnsafeMutablePointer<UInt64>? = nil) {
        for layer in network.plan.layers {
            let start = layerNanoseconds == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            defer {
                if let layerNanoseconds { layerNanoseconds[layer.index] = DispatchTime.now().uptimeNanoseconds - start }
            }
            let input = buffer(of: layer.index - 1)
            let output = arena + layout.outputOffsets[layer.index]
            let inShape = layer.inputShape, outShape = layer.outputShape
            switch layer.spec.kind {
            case .convolutional(let conv):
                let parameters = network.convolutions[layer.index]!
                if layer.algorithm == .winograd {
                    convolveWinograd(input, inShape, conv, parameters, output, outShape)
                } else {
                    convolve(input, inShape, conv, parameters, output, outShape)
                }
                parameters.biases.withUnsafeBufferPointer { biases in
                    addBiasAndActivate(output, biases: biases.baseAddress!, channels: conv.filters,
                                       planeSize: outShape.planeSize, activation: conv.activation)
                }
            case .maxpool(let pool):
                maxpool(input, channels: inShape.channels, height: inShape.height, width: inShape.width,
                        size: pool.size, stride: pool.stride, padding: pool.padding,
                        outHeight: outShape.height, outWidth: outShape.width, into: output)
            case .route(let route):
                var destination = output
                for source in route.layers {
                    let count = network.plan.layers[source].outputShape.count
                    destination.update(from: buffer(of: source), count: count)
                    destination += count
                }
            case .upsample(let up):
                upsample(input, channels: inShape.channels, height: inShape.height, width: inShape.width,
                         stride: up.stride, scale: up.scale, into: output)
            case .shortcut(let sc):
                shortcut(input, buffer(of: sc.from), count: outShape.count, alpha: sc.alpha, beta: sc.beta,
                         activation: sc.activation, into: output)
            case .yolo(let yolo):
                yoloActivate(input, yolo, outShape, into: output)
            }
        }
    }

    /// The output buffer of layer `index` (`-1` is the network input).
    private func buffer(of index: Int) -> UnsafeMutablePointer<Float> {
        arena + (index < 0 ? layout.inputOffset : layout.outputOffsets[index])
    }

    /// im2col + GEMM per group (1x1 stride-1 unpadded: the input is already the column matrix).
    private func convolve(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape, _ conv: ConvolutionalSpec,
                          _ parameters: ConvolutionParameters,
                          _ output: UnsafeMutablePointer<Float>, _ outShape: TensorShape) {
        let groupInChannels = inShape.channels / conv.groups
        let groupFilters = conv.filters / conv.groups
        let kernelArea = groupInChannels * conv.size * conv.size
        let outPlane = outShape.planeSize
        let direct = conv.size == 1 && conv.stride == 1 && conv.padding == 0
        parameters.weights.withUnsafeBufferPointer { weights in
            for g in 0..<conv.groups {
                let groupInput = input + g * groupInChannels * inShape.planeSize
                let columns: UnsafePointer<Float>
                if direct {
                    columns = UnsafePointer(groupInput)
                } else {
                    im2col(groupInput, channels: groupInChannels, height: inShape.height, width: inShape.width,
                           size: conv.size, stride: conv.stride, padding: conv.padding,
                           outHeight: outShape.height, outWidth: outShape.width, into: workspace)
                    columns = UnsafePointer(workspace)
                }
                BLAS.sgemm(m: groupFilters, n: outPlane, k: kernelArea,
                      a: weights.baseAddress! + g * groupFilters * kernelArea, lda: kernelArea,
                      b: columns, ldb: outPlane,
                      c: output + g * groupFilters * outPlane, ldc: outPlane)
            }
        }
    }

    /// Winograd F(4x4, 3x3): input transform, 36 GEMMs, output transform.
    private func convolveWinograd(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape, _ conv: ConvolutionalSpec,
                                  _ parameters: ConvolutionParameters,
                                  _ output: UnsafeMutablePointer<Float>, _ outShape: TensorShape) {
        let (rows, columns) = WinogradF43.tileCounts(height: outShape.height, width: outShape.width)
        let tiles = rows * columns
        let channels = inShape.channels, filters = conv.filters
        let transformed = workspace
        let products = workspace + WinogradF43.elements * channels * tiles
        let scratch = products + WinogradF43.elements * filters * tiles
        WinogradF43.transformInput(input, channels: channels, height: inShape.height, width: inShape.width,
                                   tileRows: rows, tileColumns: columns, into: transformed, scratch: scratch)
        parameters.weights.withUnsafeBufferPointer { weights in
            for e in 0..<WinogradF43.elements {
                BLAS.sgemm(m: filters, n: tiles, k: channels,
                           a: weights.baseAddress! + e * filters * channels, lda: channels,
                           b: transformed + e * channels * tiles, ldb: tiles,
                           c: products + e * filters * tiles, ldc: tiles)
            }
        }
        WinogradF43.transformOutput(products, filters: filters, height: outShape.height, width: outShape.width,
                                    tileRows: rows, tileColumns: columns, into: output, scratch: scratch)
    }

    /// Darknet's `[yolo]` forward: a copy of the input with the logistic applied to x, y,
    /// objectness and the class scores of every anchor (w and h stay raw).
    private func yoloActivate(_ input: UnsafeMutablePointer<Float>, _ yolo: YoloSpec, _ shape: TensorShape,
                              into output: UnsafeMutablePointer<Float>) {
        output.update(from: input, count: shape.count)
        let plane = shape.planeSize
        let entries = yolo.classes + 5
        for anchor in 0..<yolo.mask.count {
            let base = output + anchor * entries * plane
            activate(base, count: 2 * plane, activation: .logistic)
            activate(base + 4 * plane, count: (1 + yolo.classes) * plane, activation: .logistic)
        }
    }
}
