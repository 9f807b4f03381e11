extension ConvolutionAlgorithm {
    /// Winograd F(4x4, 3x3): 36 GEMMs on transformed tiles (3x3, stride 1, padding 1, 1 group).
    public static let winograd = ConvolutionAlgorithm("winograd", winograd: true)
}

/// `.winograd`: F(4x4, 3x3) with the element-wise products as 36 BLAS GEMMs (`filters x
/// channels` times `channels x tiles`), weights filter-major (`WinogradDriver`).
package struct WinogradGEMMs: WinogradMethod {
    package static var algorithm: ConvolutionAlgorithm { .winograd }
    package static var tile: WinogradWeightTransform.Tile { .f43 }
    package static var products: WinogradDriver.Products { .gemms }

    package let driver: WinogradDriver
    package let kernels: VectorKernels

    package init(driver: WinogradDriver, kernels: VectorKernels) {
        self.driver = driver
        self.kernels = kernels
    }
}
