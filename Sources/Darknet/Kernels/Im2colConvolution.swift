/// The general convolution path, as the forward pass runs it (and the micro-benchmarks time it):
/// per group, im2col into the workspace (skipped for 1x1 stride-1 unpadded layers, whose input
/// already is the column matrix), then one GEMM, without bias or activation. With several
/// threads im2col is split by channels and each GEMM by filters or by output columns.
package struct Im2colConvolution: ShapedConvolutionMethod {
    package let shapes: ConvolutionShapes

    package init(shapes: ConvolutionShapes) { self.shapes = shapes }

    /// Whether the input is used as the column matrix as it is (1x1, stride 1, no padding).
    var isDirect: Bool { conv.size == 1 && conv.strideX == 1 && conv.strideY == 1 && conv.padding == 0 }

    /// Computes `output = weights * columns` per group; `workspace` holds one group's column
    /// matrix (`channels / groups * size * size * outputPlane` floats) unless `isDirect`.
    package func run(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                     workspace: UnsafeMutablePointer<Float>, split: ThreadSplit) {
        let groupInChannels = inputShape.channels / conv.groups
        let groupFilters = conv.filters / conv.groups
        let kernelRows = conv.size * conv.size
        let kernelArea = groupInChannels * kernelRows
        let outPlane = outputShape.planeSize
        for g in 0..<conv.groups {
            let groupInput = input + g * groupInChannels * inputShape.planeSize
            let columns: UnsafePointer<Float>
            if isDirect {
                columns = groupInput
            } else {
                split(groupInChannels) { channels, _ in
                    im2col(groupInput + channels.lowerBound * inputShape.planeSize, channels: channels.count,
                           height: inputShape.height, width: inputShape.width,
                           size: conv.size, strideX: conv.strideX, strideY: conv.strideY,
                           dilation: conv.dilation, padding: conv.padding,
                           outHeight: outputShape.height, outWidth: outputShape.width,
                           into: workspace + channels.lowerBound * kernelRows * outPlane)
                }
                columns = UnsafePointer(workspace)
            }
            let a = weights + g * groupFilters * kernelArea
            let c = output + g * groupFilters * outPlane
            // Each thread reads all of the matrix it does not split: split the filters when the
            // weights are the larger operand (deep, small layers), else the output columns. Every
            // piece is large enough for OpenBLAS's packed kernels (see `splitInvariantMultiplyAdds`),
            // and there is one per thread, none left over for a thread that finishes early: each
            // piece packs the other operand again (YOLOv3's 3x3/2 256 -> 512: a 4.7 MB copy); with
            // four pieces per thread that layer took 7.6-9.6 ms at 2 threads in quiet minutes,
            // against 6.1-6.5 ms. A BLAS whose sums depend on the call's shape
            // (`BLAS.cutsInvariantly` false) gets pieces cut by the GEMM's shape alone instead,
            // the same at any thread count: at most `shapeCutPieces`.
            let minimumShare = BLAS.splitInvariantMultiplyAdds
            let invariant = BLAS.cutsInvariantly
            let threads = invariant ? split.threads : Self.shapeCutPieces
            if groupFilters > outPlane {
                let rowsPerShare = max(16, (minimumShare + outPlane * kernelArea - 1) / max(outPlane * kernelArea, 1),
                                       groupFilters / threads)
                gemmPieces(groupFilters, minimumPiece: rowsPerShare, split: split, invariant: invariant) { rows in
                    BLAS.sgemm(m: rows.count, n: outPlane, k: kernelArea,
                               a: a + rows.lowerBound * kernelArea, lda: kernelArea,
                               b: columns, ldb: outPlane,
                               c: c + rows.lowerBound * outPlane, ldc: outPlane)
                }
            } else {
                let columnsPerShare = max(64, (minimumShare + groupFilters * kernelArea - 1) / max(groupFilters * kernelArea, 1),
                                          outPlane / threads)
                gemmPieces(outPlane, minimumPiece: columnsPerShare, split: split, invariant: invariant) { span in
                    BLAS.sgemm(m: groupFilters, n: span.count, k: kernelArea,
                               a: a, lda: kernelArea,
                               b: columns + span.lowerBound, ldb: outPlane,
                               c: c + span.lowerBound, ldc: outPlane)
                }
            }
        }
    }

    /// Pieces of a GEMM cut by its shape alone when the BLAS's sums depend on the call's shape:
    /// two per core of this project's machine, each at least `BLAS.splitInvariantMultiplyAdds`.
    static let shapeCutPieces = 4

    /// Runs `body` over pieces of `0..<count`: split over the threads, at least `minimumPiece`
    /// long, where the BLAS cuts `invariant`ly; else in fixed pieces of `minimumPiece` (the last
    /// shorter), whichever threads run them.
    private func gemmPieces(_ count: Int, minimumPiece: Int, split: ThreadSplit, invariant: Bool,
                            _ body: (Range<Int>) -> Void) {
        guard !invariant else {
            split(count, minimumPiece: minimumPiece) { range, _ in body(range) }
            return
        }
        let pieces = (count + minimumPiece - 1) / minimumPiece
        split(pieces) { range, _ in
            for piece in range { body(piece * minimumPiece..<min(count, (piece + 1) * minimumPiece)) }
        }
    }

    /// The column matrix of one group (none for a 1x1 stride-1 layer, whose input already is one).
    package var workspaceCount: Int {
        isDirect ? 0 : inputShape.channels / conv.groups * conv.size * conv.size * outputShape.planeSize
    }

    package var scratchCount: Int { 0 }

    package func run(_ buffers: ConvolutionBuffers) {
        run(input: buffers.input, weights: buffers.weights, output: buffers.output, workspace: buffers.workspace,
            split: buffers.split)
        buffers.addBiases(filters: conv.filters, planeSize: outputShape.planeSize, activation: conv.activation)
    }

    package var weightCount: Int { conv.gemmWeightCount(inputChannels: inputShape.channels) }
}
