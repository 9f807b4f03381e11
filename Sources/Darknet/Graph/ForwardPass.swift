import Dispatch

/// One forward pass over an arena: a `switch` over each layer's kind calling its kernel.
/// Plans and parameters are read-only; all memory was allocated by the session.
struct ForwardPass {
    let network: Network
    let layout: ArenaLayout
    let arena: UnsafeMutablePointer<Float>
    let workspace: UnsafeMutablePointer<Float>
    /// How every kernel is spread over the session's threads.
    let split: ThreadSplit

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
                if layer.algorithm == .slidingWindow {
                    let pooled = fusesMaxpool(layer.index + 1) ? arena + layout.outputOffsets[layer.index + 1] : nil
                    convolveSlidingWindow(input, inShape, conv, parameters, output, outShape, pooledInto: pooled)
                    break
                }
                if layer.algorithm == .slidingWindowStride2 {
                    convolveSlidingWindowStride2(input, inShape, conv, parameters, output, outShape)
                    break
                }
                if let algorithm = layer.algorithm, algorithm.isWinograd {
                    convolveWinograd(input, inShape, conv, parameters, output, outShape, algorithm: algorithm)
                    break
                }
                if layer.algorithm == .im2colBands {
                    parameters.weights.withUnsafeBufferPointer { weights in
                        Im2colBands(conv, inputShape: inShape, outputShape: outShape)
                            .run(input: input, weights: weights.baseAddress!, output: output,
                                 scratch: workspace + network.plan.workspaceCount,
                                 scratchStride: network.plan.threadScratchCount,
                                 split: split)
                    }
                } else {
                    convolve(input, inShape, conv, parameters, output, outShape)
                }
                parameters.biases.withUnsafeBufferPointer { biases in
                    split(conv.filters, minimumPiece: 4) { filters, _ in
                        addBiasAndActivate(output + filters.lowerBound * outShape.planeSize,
                                           biases: biases.baseAddress! + filters.lowerBound, channels: filters.count,
                                           planeSize: outShape.planeSize, activation: conv.activation)
                    }
                }
            case .maxpool(let pool):
                if fusesMaxpool(layer.index) { break }  // computed with the convolution before it
                let scratchPlane = inShape.height * outShape.width
                split(inShape.channels, minimumPiece: 4) { channels, _ in
                    maxpool(input + channels.lowerBound * inShape.planeSize, channels: channels.count,
                            height: inShape.height, width: inShape.width,
                            size: pool.size, strideX: pool.strideX, strideY: pool.strideY, padding: pool.padding,
                            outHeight: outShape.height, outWidth: outShape.width,
                            into: output + channels.lowerBound * outShape.planeSize,
                            scratch: layer.workspaceCount > 0 ? workspace + channels.lowerBound * scratchPlane : nil)
                }
            case .route(let route):
                routeSlices(route, into: output)
            case .upsample(let up):
                split(inShape.channels, minimumPiece: 8) { channels, _ in
                    upsample(input + channels.lowerBound * inShape.planeSize, channels: channels.count,
                             height: inShape.height, width: inShape.width, stride: up.stride, scale: up.scale,
                             into: output + channels.lowerBound * outShape.planeSize)
                }
            case .shortcut(let sc):
                shortcutLayers(input, inShape, sc, into: output)
            case .yolo(let yolo):
                yoloActivate(input, yolo, outShape, into: output)
            case .scaleChannels(let scale):
                scaleChannels(input, scale, outShape, into: output)
            case .sam(let sam):
                multiply(input, buffer(of: sam.from), count: outShape.count, activation: sam.activation, into: output)
            case .region, .reorg, .avgpool, .softmax, .connected, .dropout, .batchnorm, .cost, .crop:
                runDarknetLayer(layer, input: input, output: output)
            }
        }
    }

    /// The output buffer of layer `index` (`-1` is the network input).
    func buffer(of index: Int) -> UnsafeMutablePointer<Float> {
        arena + (index < 0 ? layout.inputOffset : layout.outputOffsets[index])
    }

    /// im2col + GEMM per group (see `Im2colConvolution`), split over the session's threads.
    private func convolve(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape, _ conv: ConvolutionalSpec,
                          _ parameters: ConvolutionParameters,
                          _ output: UnsafeMutablePointer<Float>, _ outShape: TensorShape) {
        parameters.weights.withUnsafeBufferPointer { weights in
            Im2colConvolution(conv, inputShape: inShape, outputShape: outShape)
                .run(input: input, weights: weights.baseAddress!, output: output, workspace: workspace,
                     split: split)
        }
    }

    /// Whether maxpool layer `index` is computed by the convolution before it: the plan allows it
    /// and this session does not keep that convolution's output.
    private func fusesMaxpool(_ index: Int) -> Bool {
        network.plan.fusibleMaxpools.contains(index) && !layout.retained.contains(index - 1)
    }

    /// Direct convolution from zero-padded planes; threads split the padding by channel and the
    /// convolution by output rows. Bias (and leaky / ReLU) are applied by the kernel itself. With
    /// `pooled`, the next layer's 2x2/2 max pooling is applied in the same pass and only its
    /// output written there.
    private func convolveSlidingWindow(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape,
                                       _ conv: ConvolutionalSpec, _ parameters: ConvolutionParameters,
                                       _ output: UnsafeMutablePointer<Float>, _ outShape: TensorShape,
                                       pooledInto pooled: UnsafeMutablePointer<Float>?) {
        split(inShape.channels) { channels, _ in
            SlidingWindowConvolution.pad(input, channels: channels, height: inShape.height, width: inShape.width,
                                         padding: conv.padding, into: workspace, outputWidth: outShape.width,
                                         size: conv.size)
        }
        let fused = SlidingWindowConvolution.fusedEpilogue(for: conv.activation)
        parameters.weights.withUnsafeBufferPointer { weights in
            parameters.biases.withUnsafeBufferPointer { biases in
                if let pooled, let fused {  // the plan fuses a pool only after a fused activation
                    split(outShape.height / 2) { rows, _ in
                        SlidingWindowConvolution.convolvePooled(
                            padded: workspace, channels: inShape.channels, paddedHeight: inShape.height + 2 * conv.padding,
                            size: conv.size, weights: weights.baseAddress!, biases: biases.baseAddress!,
                            filters: conv.filters, into: pooled, outputHeight: outShape.height,
                            outputWidth: outShape.width, rows: rows, epilogue: fused)
                    }
                    return
                }
                split(outShape.height) { rows, _ in
                    SlidingWindowConvolution.convolve(
                        padded: workspace, channels: inShape.channels, paddedHeight: inShape.height + 2 * conv.padding,
                        size: conv.size, weights: weights.baseAddress!, biases: biases.baseAddress!,
                        filters: conv.filters, into: output, outputHeight: outShape.height, outputWidth: outShape.width,
                        rows: rows, epilogue: fused ?? 0)
                }
            }
        }
        if fused == nil {
            split(conv.filters, minimumPiece: 4) { filters, _ in
                activate(output + filters.lowerBound * outShape.planeSize,
                         count: filters.count * outShape.planeSize, activation: conv.activation)
            }
        }
    }

    /// Direct stride-2 convolution (see `SlidingWindowStride2`), output rows split over the
    /// session's threads, each with its band buffer in the thread scratch.
    private func convolveSlidingWindowStride2(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape,
                                              _ conv: ConvolutionalSpec, _ parameters: ConvolutionParameters,
                                              _ output: UnsafeMutablePointer<Float>, _ outShape: TensorShape) {
        parameters.weights.withUnsafeBufferPointer { weights in
            parameters.biases.withUnsafeBufferPointer { biases in
                SlidingWindowStride2(conv, inputShape: inShape, outputShape: outShape)
                    .run(input: input, weights: weights.baseAddress!, biases: biases.baseAddress!, output: output,
                         scratch: workspace + network.plan.workspaceCount,
                         scratchStride: network.plan.threadScratchCount, split: split)
            }
        }
    }

    /// One of the Winograd paths (see `WinogradConvolution`), split over the session's threads.
    private func convolveWinograd(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape, _ conv: ConvolutionalSpec,
                                  _ parameters: ConvolutionParameters, _ output: UnsafeMutablePointer<Float>,
                                  _ outShape: TensorShape, algorithm: ConvolutionAlgorithm) {
        let convolution = WinogradConvolution(algorithm: algorithm, inputShape: inShape, outputShape: outShape,
                                              activation: conv.activation)
        parameters.weights.withUnsafeBufferPointer { weights in
            parameters.biases.withUnsafeBufferPointer { biases in
                convolution.run(input: input, weights: weights.baseAddress!, biases: biases.baseAddress!, output: output,
                                workspace: workspace, scratch: workspace + network.plan.workspaceCount,
                                scratchStride: network.plan.threadScratchCount,
                                split: split)
            }
        }
    }
}
