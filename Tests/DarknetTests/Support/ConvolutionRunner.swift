@testable import Darknet

/// Runs one convolution algorithm as the forward pass does: `method` loaded with row-major
/// `weights` (batch norm folded) and `biases`, on `input`, split over `split`, with `kernels`.
func runConvolution(_ method: any ConvolutionMethod, weights: [Float], biases: [Float], input: [Float], outputCount: Int,
                    split: ThreadSplit, kernels: VectorKernels = CPUFeatures.current.vectorKernels) -> [Float] {
    let kernel = method.load(weights: weights, biases: biases)
    var workspace = [Float](repeating: .nan, count: method.workspaceCount + method.scratchCount * split.threads + 1)
    var output = [Float](repeating: .nan, count: outputCount)
    input.withUnsafeBufferPointer { x in
        workspace.withUnsafeMutableBufferPointer { space in
            output.withUnsafeMutableBufferPointer { y in
                kernel.run(ConvolutionBuffers(input: x.baseAddress!, output: y.baseAddress!, workspace: space.baseAddress!,
                                              scratch: space.baseAddress! + method.workspaceCount,
                                              scratchStride: method.scratchCount, split: split, kernels: kernels))
            }
        }
    }
    return output
}
