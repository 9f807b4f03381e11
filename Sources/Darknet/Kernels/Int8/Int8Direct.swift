import CDarknetKernels

/// One stride-1 or stride-2 convolution (groups 1, square kernel) in int8 without im2col, the core
/// of `Int8DirectConvolution`: the input's 8-bit codes are laid out once as channel quads of
/// padded planes, at stride 2 split into their four phases (`CDarknetKernels/integer.h`), so
/// each packed-B panel is gathered from them in pieces of up to 64 bytes, one per output row a
/// strip of 16 columns meets; the GEMM and its epilogue are the im2col path's, over the output's
/// own columns. The weights' k order differs from Darknet's (`reorder(_:)`), so the GEMM gives
/// exactly the im2col path's integers. The layout splits over threads by channel quads, the GEMM
/// by 16-column strips: the result does not depend on the thread count.
package struct Int8Direct: Sendable, Equatable {
    package let channels, height, width, filters, size, padding, stride: Int

    package init(channels: Int, height: Int, width: Int, filters: Int, size: Int, padding: Int, stride: Int = 1) {
        precondition(channels >= 1 && height >= 1 && width >= 1 && filters >= 1 && size >= 1 && padding >= 0
                     && (stride == 1 || stride == 2), "Int8Direct: bad geometry")
        (self.channels, self.height, self.width, self.filters, self.size, self.padding, self.stride) =
            (channels, height, width, filters, size, padding, stride)
        precondition(outputHeight >= 1 && outputWidth >= 1, "Int8Direct: the kernel is larger than the padded input")
        precondition(size <= Int(SWIFTDARKNET_INT8_DIRECT_MAX_SIZE), "Int8Direct: a \(size)x\(size) kernel is too large")
        precondition(depth <= Int8GEMM.maximumDepth, "Int8Direct: K = \(depth) exceeds \(Int8GEMM.maximumDepth)")
    }

    /// Whether the direct path computes a convolution of this geometry: stride 1 with a window
    /// (a 1x1 unpadded one is a plain GEMM already) or stride 2, over whole quads of channels, so
    /// that no k is spent on padding.
    package static func computes(size: Int, stride: Int, padding: Int, channels: Int) -> Bool {
        (stride == 1 && !(size == 1 && padding == 0) || stride == 2) && channels % 4 == 0
            && size <= Int(SWIFTDARKNET_INT8_DIRECT_MAX_SIZE)
            && channels * size * size <= Int8GEMM.maximumDepth
    }

    package var quads: Int { (channels + 3) / 4 }
    package var paddedHeight: Int { height + 2 * padding }
    package var paddedWidth: Int { width + 2 * padding }
    package var outputHeight: Int { (paddedHeight - size) / stride + 1 }
    package var outputWidth: Int { (paddedWidth - size) / stride + 1 }
    /// K of the GEMM: whole quads of channels times the kernel area.
    package var depth: Int { quads * 4 * size * size }
    /// Bytes of the padded layout `run` writes into its workspace.
    package var layoutBytes: Int { swiftdarknet_int8_direct_layout_bytes(channels, height, width, padding, stride) }
    /// Bytes of each thread's panel.
    package var panelBytes: Int { swiftdarknet_int8_direct_panel_bytes(depth, outputHeight * outputWidth) }

    /// Reorders Darknet's row-major `filters x (channels * size²)` weights in place so k runs
    /// in this path's `((quad * size + row) * size + column) * 4 + channel % 4`, zero for the
    /// channels a last quad lacks (`filters x depth`). In place for the channel counts `computes`
    /// takes (whole quads): a layer's weights are then never in memory twice at load.
    package func reorder(_ weights: inout [Float]) {
        Self.reorder(&weights, filters: filters, channels: channels, area: size * size, lanes: 4)
    }

    /// `reordered(_:filters:channels:area:lanes:)` in place when `channels` is a multiple of
    /// `lanes` (each row is then only permuted, through one row of scratch), else by a copy.
    static func reorder(_ weights: inout [Float], filters: Int, channels: Int, area: Int, lanes: Int) {
        guard channels % lanes == 0 else {
            weights = reordered(weights, filters: filters, channels: channels, area: area, lanes: lanes)
            return
        }
        let rowLength = channels * area
        precondition(weights.count == filters * rowLength, "direct convolution: \(weights.count) weights, expected \(filters * rowLength)")
        var row = [Float](repeating: 0, count: rowLength)
        weights.withUnsafeMutableBufferPointer { all in
            row.withUnsafeMutableBufferPointer { row in
                for filter in 0..<filters {
                    let start = filter * rowLength
                    for i in 0..<rowLength { row[i] = all[start + i] }
                    for channel in 0..<channels {
                        let target = start + channel / lanes * area * lanes + channel % lanes
                        for offset in 0..<area { all[target + offset * lanes] = row[channel * area + offset] }
                    }
                }
            }
        }
    }

    /// Darknet's row-major `filters x (channels * area)` weights with k reordered to groups of
    /// `lanes` channels at each kernel offset, `((group * area + offset) * lanes + channel %
    /// lanes)`, zero for the channels a last group lacks: the direct paths' order (quads of
    /// 8-bit channels here, pairs of 16-bit ones in `Int16Direct`).
    static func reordered(_ weights: [Float], filters: Int, channels: Int, area: Int, lanes: Int) -> [Float] {
        let rowLength = channels * area, depth = (channels + lanes - 1) / lanes * lanes * area
        precondition(weights.count == filters * rowLength, "direct convolution: \(weights.count) weights, expected \(filters * rowLength)")
        var result = [Float](repeating: 0, count: filters * depth)
        for filter in 0..<filters {
            for channel in 0..<channels {
                let group = channel / lanes, lane = channel % lanes
                for offset in 0..<area {
                    result[filter * depth + (group * area + offset) * lanes + lane] = weights[filter * rowLength + channel * area + offset]
                }
            }
        }
        return result
    }

    /// Float output (`filters x outputHeight x outputWidth`) after `epilogue`, from CHW codes.
    /// `layout` holds `layoutBytes`; `panels` holds `panelBytes` per worker, `panelStride` apart.
    package func run(input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                     epilogue: Int8Epilogue, output: UnsafeMutablePointer<Float>, layout: UnsafeMutablePointer<UInt8>,
                     panels: UnsafeMutableRawPointer, panelStride: Int, split: ThreadSplit, kernels: IntegerKernels) {
        run(input: input, quantization: quantization, weights: weights, epilogue: epilogue,
            kind: Int32(SWIFTDARKNET_INT8_OUTPUT_F32), output: UnsafeMutableRawPointer(output), outputQuantization: nil,
            layout: layout, panels: panels, panelStride: panelStride, split: split, kernels: kernels)
    }

    /// 8-bit output quantized with `outputQuantization`, for a next int8 layer to read as it is.
    package func run(input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                     epilogue: Int8Epilogue, output: UnsafeMutablePointer<UInt8>,
                     outputQuantization: Int8TensorQuantization, layout: UnsafeMutablePointer<UInt8>,
                     panels: UnsafeMutableRawPointer, panelStride: Int, split: ThreadSplit, kernels: IntegerKernels) {
        run(input: input, quantization: quantization, weights: weights, epilogue: epilogue,
            kind: Int32(SWIFTDARKNET_INT8_OUTPUT_U8), output: UnsafeMutableRawPointer(output),
            outputQuantization: outputQuantization, layout: layout, panels: panels, panelStride: panelStride, split: split,
            kernels: kernels)
    }

    /// Both overloads: `kind` says what `output` holds (float, or 8-bit codes of
    /// `outputQuantization`).
    private func run(input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                     epilogue: Int8Epilogue, kind: Int32, output: UnsafeMutableRawPointer,
                     outputQuantization: Int8TensorQuantization?, layout: UnsafeMutablePointer<UInt8>,
                     panels: UnsafeMutableRawPointer, panelStride: Int, split: ThreadSplit, kernels: IntegerKernels) {
        lay(input, quantization: quantization, weights: weights, into: layout, split: split)
        let direct = kernels.functions(for: weights).pointee.direct
        epilogue.withDescriptor(output: outputQuantization) { descriptor in
            multiply(weights, layout: layout, panels: panels, panelStride: panelStride, split: split) { a, input, panel, range in
                direct(a, filters, input, kind, descriptor, output, panel, range.lowerBound, range.upperBound)
            }
        }
    }

    private func lay(_ input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                     into layout: UnsafeMutablePointer<UInt8>, split: ThreadSplit) {
        precondition(weights.rows == filters && weights.depth == depth,
                     "Int8Direct: weights are \(weights.rows) x \(weights.depth), expected \(filters) x \(depth)")
        let zero = UInt8(quantization.zeroPoint)
        split(quads) { range, _ in
            swiftdarknet_int8_direct_layout(input, channels, height, width, padding, stride, zero, layout,
                                            range.lowerBound, range.upperBound)
        }
    }

    private func multiply(_ weights: Int8PackedWeights, layout: UnsafeMutablePointer<UInt8>,
                          panels: UnsafeMutableRawPointer, panelStride: Int, split: ThreadSplit,
                          _ body: (UnsafePointer<Int8>, UnsafePointer<swiftdarknet_int8_direct_input>,
                                   UnsafeMutablePointer<UInt8>, Range<Int>) -> Void) {
        precondition(panelStride >= panelBytes, "Int8Direct: panels \(panelStride) bytes apart, each needs \(panelBytes)")
        Self.multiply(weights, layout: layout, units: quads, paddedHeight: paddedHeight, paddedWidth: paddedWidth,
                      size: size, stride: stride, panels: panels, panelStride: panelStride, split: split, body)
    }

    /// The direct paths' GEMM over `layout` (`units` 4-byte channel groups: quads of 8-bit
    /// channels, or pairs of 16-bit ones in `Int16Direct`), split over threads by 16-column
    /// strips of the output's columns: `body(a, input, panel, columns)` on each worker's panel.
    static func multiply(_ weights: Int8PackedWeights, layout: UnsafeMutablePointer<UInt8>, units: Int,
                         paddedHeight: Int, paddedWidth: Int, size: Int, stride: Int, panels: UnsafeMutableRawPointer,
                         panelStride: Int, split: ThreadSplit,
                         _ body: (UnsafePointer<Int8>, UnsafePointer<swiftdarknet_int8_direct_input>,
                                  UnsafeMutablePointer<UInt8>, Range<Int>) -> Void) {
        var input = swiftdarknet_int8_direct_input(layout: layout, quads: units, padded_height: paddedHeight,
                                                   padded_width: paddedWidth, size: size, stride: stride)
        let columns = ((paddedHeight - size) / stride + 1) * ((paddedWidth - size) / stride + 1)
        weights.withPacked { a in
            withUnsafePointer(to: &input) { input in
                split((columns + 15) / 16) { strips, worker in
                    let panel = (panels + worker * panelStride).assumingMemoryBound(to: UInt8.self)
                    body(a, input, panel, strips.lowerBound * 16..<min(strips.upperBound * 16, columns))
                }
            }
        }
    }
}
