extension ConvolutionAlgorithm {
    /// Winograd F(2x2, 3x3) with the few-tile product kernel, for small outputs whose F(4x4, 3x3)
    /// weights would be too large to stream every pass: 16 floats per kernel instead of 36.
    public static let winogradF23 = ConvolutionAlgorithm("winograd F(2x2,3x3)", winograd: true)
}

/// `.winogradF23`: F(2x2, 3x3) with the tile-major product kernel over the whole layer
/// (`WinogradDriver`, `WinogradF23`).
package struct WinogradF23Convolution: ConvolutionMethod {
    package static var algorithm: ConvolutionAlgorithm { .winogradF23 }

    package static func computes(_ candidate: ConvolutionCandidate) -> Bool { candidate.isWinogradShape }

    let driver: WinogradDriver
    let kernels: VectorKernels

    package init(_ candidate: ConvolutionCandidate) {
        driver = WinogradDriver(shapes: candidate.shapes, tile: .f23, products: .tileMajor)
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
