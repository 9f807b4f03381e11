extension ConvolutionAlgorithm {
    /// Winograd F(2x2, 3x3) with the few-tile product kernel, for small outputs whose F(4x4, 3x3)
    /// weights would be too large to stream every pass: 16 floats per kernel instead of 36.
    public static let winogradF23 = ConvolutionAlgorithm("winograd F(2x2,3x3)", winograd: true)
}

/// `.winogradF23`: F(2x2, 3x3) with the tile-major product kernel over the whole layer
/// (`WinogradDriver`, `WinogradF23`).
package struct WinogradF23Convolution: WinogradMethod {
    package static var algorithm: ConvolutionAlgorithm { .winogradF23 }
    package static var tile: WinogradWeightTransform.Tile { .f23 }
    package static var products: WinogradDriver.Products { .tileMajor }

    package let driver: WinogradDriver
    package let kernels: VectorKernels

    package init(driver: WinogradDriver, kernels: VectorKernels) {
        self.driver = driver
        self.kernels = kernels
    }
}
