import CDarknetKernels

/// Winograd F(2x2, 3x3) for 3x3, stride-1 layers with small outputs, tile-major only.
///
/// Each 2x2 block of output comes from a 4x4 input tile: 16 element-wise products per tile where
/// F(4x4, 3x3) needs 36 per 4x4 block. It does more arithmetic than F(4x4, 3x3) but its weights
/// take 16 floats per kernel instead of 36, and covers a 13x13 output with 7x7 tiles instead of a
/// wasteful 4x4: on layers whose F(4x4, 3x3) weights are too large to stream every pass (13x13,
/// 512 -> 1024 at 75 MB) it is the faster path.
///
/// Layouts: transformed weights channel-major in blocks of 16 filters,
/// `[16][paddedFilters / 16][channels][16]`; transformed input `[16][channels][tiles]`; products
/// `[16][tiles][paddedFilters]` (by `WinogradF43.multiplyTileMajor`, which takes any element
/// count); tiles row-major over the output.
package enum WinogradF23 {
    /// Elements per transformed tile (4x4).
    package static let elements = 16

    /// Tiles needed to cover an output of `height x width`.
    @inline(__always)
    package static func tileCounts(height: Int, width: Int) -> (rows: Int, columns: Int) {
        ((height + 1) / 2, (width + 1) / 2)
    }

    /// Floats of scratch the input transform needs for an output `width` wide.
    package static func scratchCount(width: Int) -> Int { width + 8 * ((width + 1) / 2 + 1) }

    /// Workspace floats one layer needs: transformed input and products.
    package static func workspaceCount(channels: Int, filters: Int, height: Int, width: Int) -> Int {
        let (rows, columns) = tileCounts(height: height, width: width)
        return elements * rows * columns * (channels + WinogradF43.paddedFilters(filters))
    }

    /// `G g Gᵀ` for every (filter, channel) kernel of row-major `filters x channels x 3 x 3`
    /// weights into the channel-major layout above, each filter's kernels times its entry of
    /// `filterScales` if given, and the largest magnitude of the scaled weights.
    package static func transformWeights(_ weights: UnsafePointer<Float>, filterScales: [Float]? = nil, filters: Int,
                                         channels: Int, kernels: VectorKernels = .native)
        -> (values: [Float], largestScaledWeight: Float) {
        WinogradWeightTransform(tile: .f23, channelMajor: true, filters: filters, channels: channels, kernels: kernels)
            .apply(MemoryWeightRuns(weights, count: filters * channels * 9), filterScales: filterScales)
    }

    /// `transformWeights` of an array.
    package static func transformWeights(_ weights: [Float], filters: Int, channels: Int,
                                         kernels: VectorKernels = .native) -> [Float] {
        weights.withUnsafeBufferPointer {
            transformWeights($0.baseAddress!, filters: filters, channels: channels, kernels: kernels).values
        }
    }
}
