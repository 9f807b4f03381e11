extension ConvolutionAlgorithm {
    /// Winograd F(4x4, 3x3): 36 GEMMs on transformed tiles (3x3, stride 1, padding 1, 1 group).
    public static let winograd = ConvolutionAlgorithm("winograd", winograd: true)
}

/// `.winograd`: F(4x4, 3x3) with the element-wise products as 36 BLAS GEMMs (`filters x
/// channels` times `channels x tiles`), weights filter-major (`WinogradDriver`).
package struct WinogradGEMMs: ConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .winograd }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool { candidate.isWinogradShape }

    let driver: WinogradDriver
    let kernels: VectorKernels

    package init(_ candidate: ConvolutionCandidate) {
        driver = WinogradDriver(shapes: candidate.shapes, tile: .f43, products: .gemms)
        kernels = candidate.kernels
    }

    package var workspaceCount: Int { driver.workspaceCount }
    package var scratchCount: Int { driver.scratchCount }
    package var weightCount: Int { driver.weightTransform(kernels).count }

    package func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel {
        let (weights, biases) = try source.transformed(by: driver.weightTransform(kernels))
        return WinogradKernel(driver: driver, weights: weights, biases: biases)
    }
}
