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

    /// Workspace floats one layer needs: transformed input, products and scratch.
    package static func workspaceCount(channels: Int, filters: Int, height: Int, width: Int) -> Int {
        let (rows, columns) = tileCounts(height: height, width: width)
        return elements * rows * columns * (channels + filters) + scratchCount(width: width)
    }

    /// Tiles needed to cover an output of `height x width`.
    @inline(__always)
    package static func tileCounts(height: Int, width: Int) -> (rows: Int, columns: Int) {
        ((height + 3) / 4, (width + 3) / 4)
    }

    /// `G g Gᵀ` for every (filter, channel) kernel of row-major `filters x channels x 3 x 3` weights.
    package static func transformWeights(_ weights: [Float], filters: Int, channels: Int) -> [Float] {
        var result = [Float](repeating: 0, count: elements * filters * channels)
        let plane = filters * channels
        var scratch = [Float](repeating: 0, count: 18)
        weights.withUnsafeBufferPointer { g in
            result.withUnsafeMutableBufferPointer { u in
              scratch.withUnsafeMutableBufferPointer { tBuffer in
                let t = tBuffer.baseAddress!
                for f in 0..<filters {
                    for c in 0..<channels {
                        let k = g.baseAddress! + (f * channels + c) * 9
                        // t = G g (6x3)
                        for j in 0..<3 {
                            let g0 = k[j], g1 = k[3 + j], g2 = k[6 + j]
                            t[0 * 3 + j] = g0 / 4
                            t[1 * 3 + j] = -(g0 + g1 + g2) / 6
                            t[2 * 3 + j] = -(g0 - g1 + g2) / 6
                            t[3 * 3 + j] = g0 / 24 + g1 / 12 + g2 / 6
                            t[4 * 3 + j] = g0 / 24 - g1 / 12 + g2 / 6
                            t[5 * 3 + j] = g2
                        }
                        // t Gᵀ (6x6)
                        for i in 0..<6 {
                            let g0 = t[i * 3], g1 = t[i * 3 + 1], g2 = t[i * 3 + 2]
                            let out = u.baseAddress! + i * 6 * plane + f * channels + c
                            out[0] = g0 / 4
                            out[plane] = -(g0 + g1 + g2) / 6
                            out[2 * plane] = -(g0 - g1 + g2) / 6
                            out[3 * plane] = g0 / 24 + g1 / 12 + g2 / 6
                            out[4 * plane] = g0 / 24 - g1 / 12 + g2 / 6
                            out[5 * plane] = g2
                        }
                    }
                }
              }
            }
        }
        return result
    }

    /// `Bᵀ d B` for every 6x6 tile of every channel (zero padding of 1 around the input).
    ///
    /// Per row of tiles, the vertical half (`Bᵀ d`) runs over whole input rows (contiguous,
    /// vectorisable); the horizontal half then writes each of the 36 matrices contiguously
    /// along the row of tiles. `scratch` holds at least `scratchCount(width:)` floats.
    @inline(__always)
    package static func transformInput(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                                       tileRows: Int, tileColumns: Int, into v: UnsafeMutablePointer<Float>,
                                       scratch: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns
        let stride = channels * tiles
        let span = 4 * tileColumns + 2
        let zeroRow = scratch
        zeroRow.update(repeating: 0, count: width)
        let t = scratch + width
        for k in 0..<6 { t[k * span] = 0; (t + k * span + width + 1).update(repeating: 0, count: span - width - 1) }
        for c in 0..<channels {
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
                                        scratch: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns
        let stride = filters * tiles
        let s = scratch  // [4][6][tileColumns]: Aᵀ applied down each column of every tile
        for f in 0..<filters {
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
