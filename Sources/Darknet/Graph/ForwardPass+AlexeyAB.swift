/// The forward steps of the layers whose semantics come from AlexeyAB's fork (or that it
/// extends): grouped routes, multi-source shortcuts, `[scale_channels]`, `[sam]`, and the
/// `[yolo]` activation with `scale_x_y` and `new_coords`.
extension ForwardPass {
    /// `[route]`: for each source in order, slice `groupID` of its `groups` equal channel runs
    /// (the whole output when `groups` is 1), concatenated.
    func routeSlices(_ route: RouteSpec, into output: UnsafeMutablePointer<Float>) {
        let counts = route.layers.lazy.map { network.plan.layers[$0].outputShape.count / route.groups }
        // Threads split the concatenated output; a piece copies its part of each slice it meets.
        split(counts.reduce(0, +), minimumPiece: 1 << 16) { span, _ in
            var start = 0
            for (source, count) in zip(route.layers, counts) {
                let overlap = span.clamped(to: start..<(start + count))
                if !overlap.isEmpty {
                    (output + overlap.lowerBound).update(
                        from: buffer(of: source) + route.groupID * count + (overlap.lowerBound - start),
                        count: overlap.count)
                }
                start += count
            }
        }
    }

    /// `[shortcut]`: the previous output plus every `from` output. One source keeps the
    /// two-operand kernel, or Darknet's resampling when its shape differs (ResNet cfgs).
    func shortcutLayers(_ previous: UnsafeMutablePointer<Float>, _ previousShape: TensorShape, _ spec: ShortcutSpec,
                        into output: UnsafeMutablePointer<Float>) {
        let count = previousShape.count
        if spec.from.count == 1 {
            let fromShape = network.plan.layers[spec.from[0]].outputShape
            if fromShape == previousShape {
                let from = buffer(of: spec.from[0])
                split(count, minimumPiece: 1 << 16) { span, _ in
                    shortcut(previous + span.lowerBound, from + span.lowerBound, count: span.count, alpha: spec.alpha,
                             beta: spec.beta, activation: spec.activation, into: output + span.lowerBound)
                }
            } else {
                shortcutResampled(previous, previousShape, from: buffer(of: spec.from[0]), fromShape, spec, into: output)
            }
        } else {
            scaledCopy(previous, count: count, alpha: spec.alpha, into: output)
            for source in spec.from { accumulate(buffer(of: source), count: count, beta: spec.beta, into: output) }
            activate(output, count: count, activation: spec.activation)
        }
    }

    /// `[scale_channels]`: the `from` layer's output scaled per channel (or per pixel with
    /// `scale_wh`) by the previous layer's output; the output has `from`'s shape.
    func scaleChannels(_ scale: UnsafeMutablePointer<Float>, _ spec: ScaleChannelsSpec, _ shape: TensorShape,
                       into output: UnsafeMutablePointer<Float>) {
        let from = buffer(of: spec.from)
        if spec.scaleWH {
            scaleByPlane(from, plane: scale, channels: shape.channels, planeSize: shape.planeSize, into: output)
        } else {
            scaleByChannel(from, scale: scale, channels: shape.channels, planeSize: shape.planeSize, into: output)
        }
        activate(output, count: shape.count, activation: spec.activation)
    }

    /// `[yolo]` forward as AlexeyAB's `forward_yolo_layer`: a copy of the input with the
    /// logistic on x, y, objectness and class scores (none with `new_coords`: the network's
    /// last convolution already applied it), then x and y mapped to `s * v - (s - 1) / 2`.
    func yoloActivate(_ input: UnsafeMutablePointer<Float>, _ yolo: YoloSpec, _ shape: TensorShape,
                      into output: UnsafeMutablePointer<Float>) {
        let plane = shape.planeSize
        let entries = yolo.classes + 5
        // `scal_add_cpu(n, scale, -0.5*(scale - 1), ...)`: the offset is computed in double.
        let scale = yolo.scaleXY
        let offset = Float(-0.5 * (Double(scale) - 1))
        // Threads split the output; a piece applies each step to its part of the step's range.
        split(shape.count, minimumPiece: 1 << 14) { span, _ in
            (output + span.lowerBound).update(from: input + span.lowerBound, count: span.count)
            func apply(_ range: Range<Int>, _ step: (UnsafeMutablePointer<Float>, Int) -> Void) {
                let part = range.clamped(to: span)
                if !part.isEmpty { step(output + part.lowerBound, part.count) }
            }
            for anchor in 0..<yolo.mask.count {
                let base = anchor * entries * plane
                let xy = base..<(base + 2 * plane)
                if !yolo.newCoords {
                    apply(xy) { activate($0, count: $1, activation: .logistic) }
                    apply((base + 4 * plane)..<(base + entries * plane)) { activate($0, count: $1, activation: .logistic) }
                }
                if scale != 1 {
                    apply(xy) { values, count in
                        for i in 0..<count { values[i] = values[i] * scale + offset }
                    }
                }
            }
        }
    }
}
