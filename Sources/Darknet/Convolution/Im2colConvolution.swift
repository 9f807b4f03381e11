extension ConvolutionAlgorithm {
    /// im2col into the workspace, then one GEMM per group (the general path, and the reference).
    public static let im2col = ConvolutionAlgorithm("im2col+sgemm")
}

/// `.im2col`: the general convolution, as Darknet computes it: per group, im2col into the
/// workspace (split over threads by channels), then one BLAS GEMM (split by filters or by output
/// columns, `GEMMCutting`), then bias and activation.
package struct Im2colConvolution: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .im2col }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool { true }

    let shapes: ConvolutionShapes
    let cutting: GEMMCutting

    package init(_ candidate: ConvolutionCandidate) {
        shapes = candidate.shapes
        cutting = GEMMCutting(candidate.cpu.blas)
    }

    /// The column matrix of one group.
    package var workspaceCount: Int {
        saturatingProduct(shapes.kernelArea, shapes.output.planeSize)
    }

    package var scratchCount: Int { 0 }
    package var weightCount: Int { shapes.conv.gemmWeightCount(inputChannels: shapes.input.channels) }


    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let conv = shapes.conv, groupFilters = conv.filters / conv.groups
        let kernelArea = shapes.kernelArea, plane = shapes.output.planeSize, workspace = buffers.workspace
        for g in 0..<conv.groups {
            buffers.writeColumns(shapes, group: g)
            cutting.multiply(m: groupFilters, n: plane, k: kernelArea, a: weights + g * groupFilters * kernelArea,
                             b: workspace, c: buffers.output + g * groupFilters * plane, split: buffers.split)
        }
        buffers.addBiases(biases, filters: conv.filters, planeSize: plane, activation: conv.activation)
    }
}
