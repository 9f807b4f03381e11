import CDarknetKernels

/// Winograd F(4x4, 3x3) convolution for 3x3, stride-1 layers (Lavin & Gray, 2016).
///
/// Each 4x4 block of output is computed from a 6x6 input tile: `Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A`.
/// Over all channels the element-wise products become 36 independent matrix products
/// (`filters x channels` times `channels x tiles`), 4x fewer multiplications than im2col.
///
/// Layouts: transformed weights `[36][filters][channels]`; transformed input
/// `[36][channels][tiles]`; products `[36][filters][tiles]`; tiles row-major over the output.
package enum WinogradF43 {
    /// Elements per transformed tile (6x6).
    package static let elements = 36
    /// Floats of scratch the input and output transforms need for an input `width` wide.
    package static func scratchCount(width: Int) -> Int {
        let columns = (width + 3) / 4
        return max(width + 6 * (4 * columns + 2), 28 * columns)
    }

    /// Workspace floats one layer needs: transformed input and products (the per-thread
    /// transform scratch comes on top, `scratchCount(width:)` per thread).
    package static func workspaceCount(channels: Int, filters: Int, height: Int, width: Int) -> Int {
        let (rows, columns) = tileCounts(height: height, width: width)
        return elements * rows * columns * (channels + filters)
    }

    /// Tiles needed to cover an output of `height x width`.
    @inline(__always)
    package static func tileCounts(height: Int, width: Int) -> (rows: Int, columns: Int) {
        ((height + 3) / 4, (width + 3) / 4)
    }

    /// `G g Gᵀ` for every (filter, channel) kernel of row-major `filters x channels x 3 x 3`
    /// weights: filter-major `[36][filters][channels]` for the GEMM path, or channel-major
    /// `[36][channels][paddedFilters]` (zero past the last filter) for the tile-major path.
    /// With `filterScales`, each filter's kernels are multiplied by its scale first, and the
    /// largest magnitude of the scaled weights comes back (NaN or infinity if any is one).
    package static func transformWeights(_ weights: UnsafePointer<Float>, filterScales: [Float]? = nil, filters: Int,
                                         channels: Int, channelMajor: Bool = false, kernels: VectorKernels = .native)
        -> (values: [Float], largestScaledWeight: Float) {
        WinogradWeightTransform(tile: .f43, channelMajor: channelMajor, filters: filters, channels: channels, kernels: kernels)
            .apply(MemoryWeightRuns(weights, count: filters * channels * 9), filterScales: filterScales)
    }

    /// `transformWeights` of an array.
    package static func transformWeights(_ weights: [Float], filters: Int, channels: Int, channelMajor: Bool = false,
                                         kernels: VectorKernels = .native) -> [Float] {
        weights.withUnsafeBufferPointer {
            transformWeights($0.baseAddress!, filters: filters, channels: channels, channelMajor: channelMajor,
                             kernels: kernels).values
        }
    }

    /// Filters rounded up to whole SIMD vectors in the tile-major layouts.
    package static func paddedFilters(_ filters: Int) -> Int { swiftdarknet_winograd_padded_filters(filters) }

    /// Workspace floats of the tile-major path: transformed input and tile-major products.
    package static func tileMajorWorkspaceCount(channels: Int, filters: Int, height: Int, width: Int) -> Int {
        let (rows, columns) = tileCounts(height: height, width: width)
        return elements * rows * columns * (channels + paddedFilters(filters))
    }
}
