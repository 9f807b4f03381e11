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
        return max(width + 6 * (4 * columns + 2), 24 * columns)
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

    /// `Bᵀ d B` for every 6x6 tile of every channel (zero padding of 1 around the input).
    ///
    /// Per row of tiles, the vertical half (`Bᵀ d`) runs over whole input rows (contiguous,
    /// vectorisable); the horizontal half then writes each of the 36 matrices contiguously
    /// along the row of tiles. `scratch` holds at least `scratchCount(width:)` floats.
    @inline(__always)
    package static func transformInput(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                                       tileRows: Int, tileColumns: Int, into v: UnsafeMutablePointer<Float>,
                                       scratch: UnsafeMutablePointer<Float>, channelRange: Range<Int>? = nil) {
        let tiles = tileRows * tileColumns
        let stride = channels * tiles
        let span = 4 * tileColumns + 2
        let zeroRow = scratch
        zeroRow.update(repeating: 0, count: width)
        let t = scratch + width
        for k in 0..<6 { t[k * span] = 0; (t + k * span + width + 1).update(repeating: 0, count: span - width - 1) }
        for c in channelRange ?? 0..<channels {
            let plane = input + c * height * width
            for ty in 0..<tileRows {
                let y0 = ty * 4 - 1
                func row(_ i: Int) -> UnsafePointer<Float> {
                    let y = y0 + i
                    return (y >= 0 && y < height) ? plane + y * width : UnsafePointer(zeroRow)
                }
                let d0 = row(0), d1 = row(1), d2 = row(2), d3 = row(3), d4 = row(4), d5 = row(5)
                let t0 = t + 1, t1 = t0 + span, t2 = t1 + span, t3 = t2 + span, t4 = t3 + span, t5 = t4 + span
                for x in 0..<width {
                    let a0 = d0[x], a1 = d1[x], a2 = d2[x], a3 = d3[x], a4 = d4[x], a5 = d5[x]
                    t0[x] = 4 * a0 - 5 * a2 + a4
                    t1[x] = -4 * (a1 + a2) + a3 + a4
                    t2[x] = 4 * (a1 - a2) - a3 + a4
                    t3[x] = 2 * (a3 - a1) - a2 + a4
                    t4[x] = 2 * (a1 - a3) - a2 + a4
                    t5[x] = 4 * a1 - 5 * a3 + a5
                }
                let rowOffset = c * tiles + ty * tileColumns
                for k in 0..<6 {
                    let r = t + k * span
                    let o0 = v + (k * 6) * stride + rowOffset
                    let o1 = o0 + stride, o2 = o1 + stride, o3 = o2 + stride, o4 = o3 + stride, o5 = o4 + stride
                    for tx in 0..<tileColumns {
                        let e = r + 4 * tx
                        let e0 = e[0], e1 = e[1], e2 = e[2], e3 = e[3], e4 = e[4], e5 = e[5]
                        o0[tx] = 4 * e0 - 5 * e2 + e4
                        o1[tx] = -4 * (e1 + e2) + e3 + e4
                        o2[tx] = 4 * (e1 - e2) - e3 + e4
                        o3[tx] = 2 * (e3 - e1) - e2 + e4
                        o4[tx] = 2 * (e1 - e3) - e2 + e4
                        o5[tx] = 4 * e1 - 5 * e3 + e5
                    }
                }
            }
        }
    }

    /// `Aᵀ m A` for every tile of every filter, writing the 4x4 blocks (clipped at the edges).
    ///
    /// Per row of tiles the vertical half runs along the row of tiles (contiguous in the
    /// product matrices); the horizontal half writes whole output rows.
    @inline(__always)
    package static func transformOutput(_ m: UnsafePointer<Float>, filters: Int, height: Int, width: Int,
                                        tileRows: Int, tileColumns: Int, into output: UnsafeMutablePointer<Float>,
                                        scratch: UnsafeMutablePointer<Float>, filterRange: Range<Int>? = nil) {
        let tiles = tileRows * tileColumns
        let stride = filters * tiles
        let s = scratch  // [4][6][tileColumns]: Aᵀ applied down each column of every tile
        for f in filterRange ?? 0..<filters {
            let plane = output + f * height * width
            for ty in 0..<tileRows {
                let rowOffset = f * tiles + ty * tileColumns
                for j in 0..<6 {
                    let m0 = m + j * stride + rowOffset
                    let m1 = m0 + 6 * stride, m2 = m1 + 6 * stride, m3 = m2 + 6 * stride
                    let m4 = m3 + 6 * stride, m5 = m4 + 6 * stride
                    let s0 = s + j * tileColumns, s1 = s0 + 6 * tileColumns
                    let s2 = s1 + 6 * tileColumns, s3 = s2 + 6 * tileColumns
                    for tx in 0..<tileColumns {
                        let a1 = m1[tx], a2 = m2[tx], a3 = m3[tx], a4 = m4[tx]
                        let sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4
                        s0[tx] = m0[tx] + sum12 + sum34
                        s1[tx] = diff12 + 2 * diff34
                        s2[tx] = sum12 + 4 * sum34
                        s3[tx] = diff12 + 8 * diff34 + m5[tx]
                    }
                }
                let oy = ty * 4
                for i in 0..<min(4, height - oy) {
                    let r = s + i * 6 * tileColumns
                    let destination = plane + (oy + i) * width
                    for tx in 0..<tileColumns {
                        let a0 = r[tx], a1 = r[tileColumns + tx], a2 = r[2 * tileColumns + tx]
                        let a3 = r[3 * tileColumns + tx], a4 = r[4 * tileColumns + tx], a5 = r[5 * tileColumns + tx]
                        let sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4
                        let ox = 4 * tx
                        if ox + 4 <= width {
                            destination[ox] = a0 + sum12 + sum34
                            destination[ox + 1] = diff12 + 2 * diff34
                            destination[ox + 2] = sum12 + 4 * sum34
                            destination[ox + 3] = diff12 + 8 * diff34 + a5
                        } else {
                            let values = (a0 + sum12 + sum34, diff12 + 2 * diff34, sum12 + 4 * sum34, diff12 + 8 * diff34 + a5)
                            destination[ox] = values.0
                            if ox + 1 < width { destination[ox + 1] = values.1 }
                            if ox + 2 < width { destination[ox + 2] = values.2 }
                        }
                    }
                }
            }
        }
    }
}
