extension ConvolutionAlgorithm {
    /// Winograd F(4x4, 3x3) for small outputs (up to 169 tiles: 52x52): the element-wise
    /// products by a register-blocked, tile-major kernel that reads each transformed weight once,
    /// where 36 thin GEMMs would re-pack every weight. Its weights take 4x the memory of im2col's.
    public static let winogradFewTiles = ConvolutionAlgorithm("winograd few tiles", winograd: true)
}

/// `.winogradFewTiles`: F(4x4, 3x3) with the tile-major product kernel over the whole layer,
/// weights channel-major (`WinogradDriver`).
package struct WinogradFewTiles: WinogradMethod {
    package static var algorithm: ConvolutionAlgorithm { .winogradFewTiles }
    package static var tile: WinogradWeightTransform.Tile { .f43 }
    package static var products: WinogradDriver.Products { .tileMajor }

    /// Most F(4x4, 3x3) tiles the whole-layer tile-major paths take on (a 52x52 output): beyond,
    /// the transformed input and products outgrow L2, and run a band at a time.
    static let tileLimit = 169
    /// Largest F(4x4, 3x3) weights (bytes) the planner takes this path for: its products stream
    /// them once per pass, so beyond this a layer is bound by memory bandwidth and F(2x2, 3x3),
    /// with 16/36 of the weights, is faster.
    static let weightLimit = 32 << 20

    package let driver: WinogradDriver
    package let kernels: VectorKernels

    package init(driver: WinogradDriver, kernels: VectorKernels) {
        self.driver = driver
        self.kernels = kernels
    }
}
