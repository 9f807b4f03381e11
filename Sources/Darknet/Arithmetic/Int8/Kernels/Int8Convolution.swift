/// One convolution (groups 1, square kernel, equal strides) as 8-bit im2col + int8 GEMM, the
/// core a later int8 convolution algorithm runs: the input already in 8-bit codes (CHW), its
/// im2col written packed into a workspace (skipped for 1x1/1 without padding, where the input
/// is B itself and is only packed), then the GEMM with its fused epilogue into a float or an
/// 8-bit CHW output. Packing is split over threads by quads of k, the GEMM by 16-column strips
/// or, for narrow outputs, 8-row blocks (`splitsRows`), so the result does not depend on the
/// thread count. Allocates nothing.
package struct Int8Convolution: IntegerKernelGeometry, Equatable {
    package let channels, height, width, filters, size, stride, padding: Int
    package let outputHeight, outputWidth: Int

    package init(channels: Int, height: Int, width: Int, filters: Int, size: Int, padding: Int, stride: Int) {
        precondition(channels >= 1 && height >= 1 && width >= 1 && filters >= 1 && size >= 1 && stride >= 1 && padding >= 0,
                     "Int8Convolution: bad geometry")
        (self.channels, self.height, self.width, self.filters) = (channels, height, width, filters)
        (self.size, self.stride, self.padding) = (size, stride, padding)
        outputHeight = Int8Im2col.outputExtent(height, size: size, stride: stride, padding: padding)
        outputWidth = Int8Im2col.outputExtent(width, size: size, stride: stride, padding: padding)
        precondition(outputHeight >= 1 && outputWidth >= 1, "Int8Convolution: the kernel is larger than the padded input")
        precondition(depth <= Int8GEMM.maximumDepth, "Int8Convolution: K = \(depth) exceeds \(Int8GEMM.maximumDepth)")
    }

    /// K of the GEMM: `channels * size²` (the weights' row length, Darknet's order).
    package var depth: Int { channels * size * size }
    /// N of the GEMM: the output plane.
    package var columns: Int { outputHeight * outputWidth }
    /// Bytes of the packed-B workspace `run` needs.
    package var workspaceBytes: Int { Int8Im2col.packedBytes(depth: depth, columns: columns) }
    /// Whether B is the input itself (1x1, stride 1, no padding): packed, no im2col.
    package var isPointwise: Bool { size == 1 && stride == 1 && padding == 0 }

    /// Float output (`filters x outputHeight x outputWidth`) after `epilogue`.
    package func run(input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                     epilogue: Int8Epilogue, output: UnsafeMutablePointer<Float>, workspace: UnsafeMutablePointer<UInt8>,
                     split: ThreadSplit, kernels: IntegerKernels) {
        pack(input, quantization: quantization, weights: weights, workspace: workspace, split: split)
        multiplyInParallel(split) { columns, rows in
            Int8GEMM.multiply(weights, workspace, columns: self.columns, epilogue: epilogue, into: output,
                              rowStride: self.columns, range: columns, rows: rows, kernels: kernels)
        }
    }

    /// 8-bit output quantized with `outputQuantization`, for a next int8 layer to read as it is.
    package func run(input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                     epilogue: Int8Epilogue, output: UnsafeMutablePointer<UInt8>,
                     outputQuantization: Int8TensorQuantization, workspace: UnsafeMutablePointer<UInt8>,
                     split: ThreadSplit, kernels: IntegerKernels) {
        pack(input, quantization: quantization, weights: weights, workspace: workspace, split: split)
        multiplyInParallel(split) { columns, rows in
            Int8GEMM.multiply(weights, workspace, columns: self.columns, epilogue: epilogue, into: output,
                              quantization: outputQuantization, rowStride: self.columns, range: columns, rows: rows,
                              kernels: kernels)
        }
    }

    /// Whether the GEMM is cut over threads by 8-row blocks of filters rather than 16-column
    /// strips: when the output plane is too narrow to give every thread several tiles' width
    /// (3 strips) and there are rows enough (YOLO's 13 x 13 layers: 11 strips, 64-128 blocks),
    /// where strips would leave the threads unevenly loaded. Either way every output is the
    /// same tile's sum, so results do not depend on it.
    package static func splitsRows(strips: Int, blocks: Int, threads: Int) -> Bool {
        threads > 1 && (strips + 2) / 3 < 6 * threads && blocks >= 8 * threads
    }

    /// Runs `body(columns, rows)` over pieces of the output that cover it once, split over
    /// `split`'s threads by `splitsRows`.
    private func multiplyInParallel(_ split: ThreadSplit, _ body: (_ columns: Range<Int>, _ rows: Range<Int>) -> Void) {
        let strips = (columns + 15) / 16, blocks = (filters + 7) / 8
        if Self.splitsRows(strips: strips, blocks: blocks, threads: split.threads) {
            split(blocks) { pieces, _ in body(0..<columns, pieces.lowerBound * 8..<min(pieces.upperBound * 8, filters)) }
        } else {
            split(strips) { pieces, _ in body(pieces.lowerBound * 16..<min(pieces.upperBound * 16, columns), 0..<filters) }
        }
    }

    private func pack(_ input: UnsafePointer<UInt8>, quantization: Int8TensorQuantization, weights: Int8PackedWeights,
                      workspace: UnsafeMutablePointer<UInt8>, split: ThreadSplit) {
        precondition(weights.rows == filters && weights.depth == depth,
                     "Int8Convolution: weights are \(weights.rows) x \(weights.depth), expected \(filters) x \(depth)")
        split(Int8Im2col.quads(depth: depth)) { quads, _ in
            if isPointwise {
                Int8Im2col.pack(input, depth: depth, columns: columns, rowStride: columns, into: workspace, quads: quads)
            } else {
                Int8Im2col.im2col(input, channels: channels, height: height, width: width, size: size, stride: stride,
                                  padding: padding, zeroPoint: quantization.zeroPoint, into: workspace, quads: quads)
            }
        }
    }
}
