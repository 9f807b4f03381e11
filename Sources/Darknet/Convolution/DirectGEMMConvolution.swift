extension ConvolutionAlgorithm {
    /// 1x1, stride 1, no padding: the input already is the GEMM's B matrix, so one GEMM per
    /// group by the BLAS, without im2col.
    public static let direct = ConvolutionAlgorithm("sgemm")
}

/// `.direct`: a 1x1 stride-1 unpadded convolution as one BLAS GEMM per group on the input as it
/// is, then bias and activation.
package struct DirectGEMMConvolution: ConvolutionMethod {
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

    package func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel {
        let (weights, biases) = try source.folded()
        return Kernel(plan: self, weights: weights, biases: biases)
    }

    struct Kernel: ConvolutionKernel {
        let plan: DirectGEMMConvolution
        let weights: [Float]
        let biases: [Float]

        var parameterArrays: [[Float]] { [weights, biases] }

        func run(_ buffers: ConvolutionBuffers) {
            let shapes = plan.shapes, conv = shapes.conv
            let groupFilters = conv.filters / conv.groups, groupChannels = shapes.input.channels / conv.groups
            let plane = shapes.output.planeSize
            weights.withUnsafeBufferPointer { weights in
                for g in 0..<conv.groups {
                    plan.cutting.multiply(m: groupFilters, n: plane, k: groupChannels,
                                          a: weights.baseAddress! + g * groupFilters * groupChannels,
                                          b: buffers.input + g * groupChannels * shapes.input.planeSize,
                                          c: buffers.output + g * groupFilters * plane, split: buffers.split)
                }
            }
            buffers.addBiases(biases, planeSize: plane, activation: conv.activation)
        }
    }
}
