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

    /// `G g Gᵀ` for every (filter, channel) kernel of row-major `filters x channels x 3 x 3` weights,
    /// four kernels at a time (lanes), each result stored contiguously in its element's matrix.
    package static func transformWeights(_ weights: [Float], filters: Int, channels: Int) -> [Float] {
        let plane = filters * channels
        return [Float](unsafeUninitializedCapacity: elements * plane) { u, initialized in
            weights.withUnsafeBufferPointer { g in
                var kernel = 0
                while kernel < plane {
                    let lanes = min(4, plane - kernel)
                    let k = g.baseAddress! + kernel * 9
                    func load(_ j: Int) -> SIMD4<Float> {
                        if lanes == 4 { return SIMD4(k[j], k[9 + j], k[18 + j], k[27 + j]) }
                        var v = SIMD4<Float>()
                        for lane in 0..<lanes { v[lane] = k[lane * 9 + j] }
                        return v
                    }
                    func store(_ v: SIMD4<Float>, _ element: Int) {
                        let base = u.baseAddress! + element * plane + kernel
                        if lanes == 4 {
                            UnsafeMutableRawPointer(base).storeBytes(of: v, as: SIMD4<Float>.self)
                        } else {
                            for lane in 0..<lanes { base[lane] = v[lane] }
                        }
                    }
                    // Rows of G g (6x3): gg[i][j].
                    let c0 = (load(0), load(1), load(2)), c1 = (load(3), load(4), load(5)), c2 = (load(6), load(7), load(8))
                    func column(_ g0: SIMD4<Float>, _ g1: SIMD4<Float>, _ g2: SIMD4<Float>)
                        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
                        (g0 * 0.25,
                         (g0 + g1 + g2) * (-1.0 / 6),
                         (g0 - g1 + g2) * (-1.0 / 6),
                         g0 * (1.0 / 24) + g1 * (1.0 / 12) + g2 * (1.0 / 6),
                         g0 * (1.0 / 24) - g1 * (1.0 / 12) + g2 * (1.0 / 6),
                         g2)
                    }
                    // G applied down each of the three kernel columns.
                    let a = column(c0.0, c1.0, c2.0), b = column(c0.1, c1.1, c2.1), c = column(c0.2, c1.2, c2.2)
                    func emitRow(_ i: Int, _ r0: SIMD4<Float>, _ r1: SIMD4<Float>, _ r2: SIMD4<Float>) {
                        let r = column(r0, r1, r2)
                        store(r.0, i * 6); store(r.1, i * 6 + 1); store(r.2, i * 6 + 2)
                        store(r.3, i * 6 + 3); store(r.4, i * 6 + 4); store(r.5, i * 6 + 5)
                    }
                    emitRow(0, a.0, b.0, c.0); emitRow(1, a.1, b.1, c.1); emitRow(2, a.2, b.2, c.2)
                    emitRow(3, a.3, b.3, c.3); emitRow(4, a.4, b.4, c.4); emitRow(5, a.5, b.5, c.5)
                    kernel += lanes
                }
            }
            initialized = elements * plane
        }
    }

    /// `Bᵀ d B` for every 6x6 tile of every channel in `channelRange` (zero padding of 1 around
    /// the input), written to the 36 matrices of `v`. `scratch` holds `scratchCount(width:)` floats.
    @inline(__always)
    package static func transformInput(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                                       tileRows: Int, tileColumns: Int, into v: UnsafeMutablePointer<Float>,
                                       scratch: UnsafeMutablePointer<Float>, channelRange: Range<Int>? = nil) {
        let range = channelRange ?? 0..<channels
        swiftdarknet_winograd_input(input, channels, height, width, tileRows, tileColumns, v, scratch,
                                    range.lowerBound, range.count)
    }

    /// `Aᵀ m A` for every tile of every filter in `filterRange`, writing the 4x4 blocks (clipped at
    /// the edges) plus each filter's bias, then `epilogue` (a `SlidingWindowConvolution` epilogue code).
    @inline(__always)
    package static func transformOutput(_ m: UnsafePointer<Float>, filters: Int, height: Int, width: Int,
                                        tileRows: Int, tileColumns: Int, biases: UnsafePointer<Float>, epilogue: Int32,
                                        into output: UnsafeMutablePointer<Float>,
                                        scratch: UnsafeMutablePointer<Float>, filterRange: Range<Int>? = nil) {
        let range = filterRange ?? 0..<filters
        swiftdarknet_winograd_output(m, filters, height, width, tileRows, tileColumns, biases, epilogue,
                                     output, scratch, range.lowerBound, range.count)
    }
}
