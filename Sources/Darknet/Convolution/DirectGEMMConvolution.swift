extension ConvolutionAlgorithm {
    /// 1x1, stride 1, no padding: the input already is the GEMM's B matrix, so one GEMM per
    /// group by the BLAS, without im2col.
    public static let direct = ConvolutionAlgorithm("sgemm")
}

/// `.direct`: a 1x1 stride-1 unpadded convolution as one BLAS GEMM per group on the input as it
/// is, then bias and activation.
package struct DirectGEMMConvolution: FloatConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .direct }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool { candidate.shapes.isPointwise }

    let shapes: ConvolutionShapes
    let cutting: GEMMCutting

    package init(_ candidate: ConvolutionCandidate) {
        shapes = candidate.shapes
        cutting = GEMMCutting(candidate.cpu.blas)
    }

    package var workspaceCount: Int { 0 }
    package var scratchCount: Int { 0 }
    package var weightCount: Int { shapes.conv.gemmWeightCount(inputChannels: shapes.input.channels) }


    package func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers) {
        let conv = shapes.conv
        let groupFilters = conv.filters / conv.groups, groupChannels = shapes.input.channels / conv.groups
        let plane = shapes.output.planeSize
        for g in 0..<conv.groups {
            cutting.multiply(m: groupFilters, n: plane, k: groupChannels, a: weights + g * groupFilters * groupChannels,
                             b: buffers.input + g * groupChannels * shapes.input.planeSize,
                             c: buffers.output + g * groupFilters * plane, split: buffers.split)
        }
        buffers.addBiases(biases, filters: conv.filters, planeSize: plane, activation: conv.activation)
    }
}
