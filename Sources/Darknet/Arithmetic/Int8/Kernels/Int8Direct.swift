import CDarknetKernels

/// One stride-1 or stride-2 convolution (groups 1, square kernel) in int8 without im2col, the core
/// of `Int8DirectConvolution`: the input's 8-bit codes are laid out once as channel quads of
/// padded planes, at stride 2 split into their four phases (`CDarknetKernels/integer.h`), so
/// each packed-B panel is gathered from them in pieces of up to 64 bytes, one per output row a
/// strip of 16 columns meets; the GEMM and its epilogue are the im2col path's, over the output's
/// own columns. The weights' k order differs from Darknet's (`reorder(_:)`), so the GEMM gives
/// exactly the im2col path's integers. The layout splits over threads by channel quads, the GEMM
/// by 16-column strips: the result does not depend on the thread count.
package struct Int8Direct: IntegerDirectCore, Equatable {
    package let channels, height, width, filters, size, padding, stride: Int

    package static let lanes = 4
    package static var maximumDepth: Int { Int8GEMM.maximumDepth }

    package init(channels: Int, height: Int, width: Int, filters: Int, size: Int, padding: Int, stride: Int = 1) {
        (self.channels, self.height, self.width, self.filters, self.size, self.padding, self.stride) =
            (channels, height, width, filters, size, padding, stride)
        checkGeometry()
    }

    /// Whether the direct path computes a convolution of this geometry: stride 1 with a window
    /// (a 1x1 unpadded one is a plain GEMM already) or stride 2, over whole quads of channels, so
    /// that no k is spent on padding.
    package static func computes(size: Int, stride: Int, padding: Int, channels: Int) -> Bool {
        (stride == 1 && !(size == 1 && padding == 0) || stride == 2) && channels % 4 == 0
            && size <= Int(SWIFTDARKNET_INT8_DIRECT_MAX_SIZE)
            && channels * size * size <= maximumDepth
    }

    /// Bytes of the padded layout `run` writes into its workspace.
    package var layoutBytes: Int { swiftdarknet_int8_direct_layout_bytes(channels, height, width, padding, stride) }
    /// Bytes of each thread's panel.
    package var panelBytes: Int { swiftdarknet_int8_direct_panel_bytes(depth, outputHeight * outputWidth) }

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
        split(units) { range, _ in
            swiftdarknet_int8_direct_layout(input, channels, height, width, padding, stride, zero, layout,
                                            range.lowerBound, range.upperBound)
        }
    }
}
