/// The forward pass of the YOLOv2 and classifier layers, and of ResNet's shortcuts between
/// layers of different shapes.
extension ForwardPass {
    /// Runs a `[region]`, `[reorg]`, `[avgpool]`, `[softmax]`, `[connected]`, `[dropout]`,
    /// `[batchnorm]`, `[cost]` or `[crop]` layer from `input` into `output`.
    func runDarknetLayer(_ layer: LayerPlan, input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let inShape = layer.inputShape, outShape = layer.outputShape
        switch layer.spec.kind {
        case .region(let region):
            regionActivate(input, region, outShape, into: output)
        case .reorg(let spec):
            if spec.extra > 0 {
                output.update(from: input, count: inShape.count)
                (output + inShape.count).update(repeating: 0, count: spec.extra)
            } else if spec.flatten {
                interleaveChannels(input, planeSize: inShape.planeSize, channels: inShape.channels,
                                   reverse: spec.reverse, into: output)
            } else {
                reorg(input, width: inShape.width, height: inShape.height, channels: inShape.channels,
                      stride: spec.stride, reverse: spec.reverse, into: output)
            }
        case .avgpool:
            averagePool(input, channels: inShape.channels, planeSize: inShape.planeSize, into: output)
        case .softmax(let spec):
            let size = inShape.count / spec.groups
            for g in 0..<spec.groups {
                softmax(input + g * size, count: size, temperature: spec.temperature, into: output + g * size)
            }
        case .connected(let spec):
            let parameters = network.convolutions[layer.index]!
            let inputs = inShape.count
            parameters.weights.withUnsafeBufferPointer { weights in
                BLAS.sgemm(m: spec.outputs, n: 1, k: inputs, a: weights.baseAddress!, lda: inputs,
                           b: input, ldb: 1, c: output, ldc: 1)
            }
            parameters.biases.withUnsafeBufferPointer { biases in
                addBiasAndActivate(output, biases: biases.baseAddress!, channels: spec.outputs, planeSize: 1,
                                   activation: spec.activation)
            }
        case .dropout, .cost:
            output.update(from: input, count: outShape.count)
        case .batchnorm:
            let parameters = network.convolutions[layer.index]!
            parameters.weights.withUnsafeBufferPointer { factors in
                parameters.biases.withUnsafeBufferPointer { shifts in
                    scaleAndShift(input, factors: factors.baseAddress!, shifts: shifts.baseAddress!,
                                  channels: inShape.channels, planeSize: inShape.planeSize, into: output)
                }
            }
        case .crop(let spec):
            centreCrop(input, channels: inShape.channels, height: inShape.height, width: inShape.width,
                       outHeight: outShape.height, outWidth: outShape.width,
                       scale: spec.noAdjust ? 1 : 2, shift: spec.noAdjust ? 0 : -1, into: output)
        case .convolutional, .maxpool, .route, .upsample, .shortcut, .yolo, .scaleChannels, .sam:
            preconditionFailure("runDarknetLayer called for [\(layer.spec.kind.sectionName)]")
        }
    }

    /// A `[shortcut]` whose `from` layer has another shape than the previous layer, as
    /// Darknet's `shortcut_cpu` (ResNet cfgs): a copy of the previous output with the
    /// overlapping values combined, then the activation.
    func shortcutResampled(_ input: UnsafeMutablePointer<Float>, _ inShape: TensorShape,
                           from: UnsafeMutablePointer<Float>, _ fromShape: TensorShape, _ spec: ShortcutSpec,
                           into output: UnsafeMutablePointer<Float>) {
        // The planner accepted these shapes only if the geometry exists.
        let geometry = ShortcutGeometry(from: fromShape, to: inShape)!
        output.update(from: input, count: inShape.count)
        resampledShortcut(from, fromWidth: fromShape.width, fromHeight: fromShape.height, into: output,
                          toWidth: inShape.width, toHeight: inShape.height, geometry: geometry,
                          alpha: spec.alpha, beta: spec.beta)
        activate(output, count: inShape.count, activation: spec.activation)
    }

    /// Darknet's `[region]` forward: a copy of the input with the logistic applied to x, y and
    /// objectness of every anchor, and a softmax (or the logistic) over its class scores.
    private func regionActivate(_ input: UnsafeMutablePointer<Float>, _ region: RegionSpec, _ shape: TensorShape,
                                into output: UnsafeMutablePointer<Float>) {
        output.update(from: input, count: shape.count)
        let plane = shape.planeSize
        for anchor in 0..<region.num {
            let base = output + anchor * region.entries * plane
            activate(base, count: 2 * plane, activation: .logistic)
            activate(base + region.coords * plane, count: plane, activation: .logistic)
            let classes = base + (region.coords + 1) * plane
            if region.softmax {
                for cell in 0..<plane {
                    softmax(classes + cell, count: region.classes, temperature: 1, stride: plane, into: classes + cell)
                }
            } else {
                activate(classes, count: region.classes * plane, activation: .logistic)
            }
        }
    }
}
