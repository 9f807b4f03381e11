/// Darknet's bilinear resize (`resize_image` in `image.c`), reproduced value for value.
///
/// The arithmetic is float32 throughout and in Darknet's order, so the result equals
/// Darknet's bit for bit:
///
/// - `wScale = Float(W - 1) / Float(newW - 1)`, `hScale = Float(H - 1) / Float(newH - 1)`.
/// - Horizontal pass into a `newW x H` buffer: the last output column (or every column when
///   `W == 1`) copies source column `W - 1`; otherwise `sx = Float(c) * wScale`,
///   `ix = Int(sx)`, `dx = sx - Float(ix)`, `v = (1 - dx) * s[ix] + dx * s[ix + 1]`.
/// - Vertical pass: `sy = Float(r) * hScale`, `iy = Int(sy)`, `dy = sy - Float(iy)`,
///   `out = (1 - dy) * p[iy]`, then `out += dy * p[iy + 1]` unless `r == newH - 1` or
///   `H == 1`.
///
/// Quirk kept on purpose: the last row is not special-cased the way the last column is. When
/// `Float(newH - 1) * hScale` rounds to just below `H - 1`, the last row is
/// `(1 - dy) * p[H - 2]` with `dy` close to 1, i.e. nearly black. Darknet does this, and the
/// network saw it in training, so the Darknet-compatible path does it too.
///
/// One deliberate difference: for `newH == 1` Darknet computes `0 * inf` (or `0 / 0`) and
/// reads out of bounds; here the single output row is source row 0.
extension PlanarImage {
    /// This image resized to `width x height` exactly as Darknet's `resize_image` does it.
    ///
    /// Cost: `O(channels * (height * width + width * height'))` float operations; the two
    /// passes run over unsafe buffers and allocate one intermediate `width x self.height`
    /// plane set.
    /// - Throws: `ImageError.invalidDimensions` if `width` or `height` is not positive.
    public func resized(width newWidth: Int, height newHeight: Int) throws(ImageError) -> PlanarImage {
        guard newWidth > 0, newHeight > 0 else {
            throw .invalidDimensions(width: newWidth, height: newHeight, channels: channels)
        }
        let (area, overflowA) = newWidth.multipliedReportingOverflow(by: newHeight)
        let (_, overflowB) = area.multipliedReportingOverflow(by: channels)
        guard !overflowA, !overflowB else {
            throw .invalidDimensions(width: newWidth, height: newHeight, channels: channels)
        }
        let part = horizontalPass(newWidth: newWidth)
        let out = Self.verticalPass(part, width: newWidth, sourceHeight: height,
                                    newHeight: newHeight, channels: channels)
        return PlanarImage(validatedWidth: newWidth, height: newHeight, channels: channels, pixels: out)
    }

    /// Horizontal interpolation: `channels x height x newWidth` values.
    private func horizontalPass(newWidth: Int) -> [Float] {
        let w = width, h = height, c = channels
        let wScale = Float(w - 1) / Float(newWidth - 1)
        // Per-column source index and weight; identical for every row, so computed once.
        // Columns from `interpolatedColumns` on copy source column `w - 1`.
        var sourceIndex = [Int](repeating: w - 1, count: newWidth)
        var weight = [Float](repeating: 0, count: newWidth)
        let copiesLast = w == 1
        if !copiesLast && newWidth > 1 {
            for col in 0..<(newWidth - 1) {
                let sx = Float(col) * wScale
                let ix = Int(sx)
                sourceIndex[col] = ix
                weight[col] = sx - Float(ix)
                // Only reachable when Float(col) is inexact (widths beyond 2^24): stay in bounds.
                if ix > w - 2 { sourceIndex[col] = w - 2 }
            }
        }
        let interpolatedColumns = copiesLast ? 0 : newWidth - 1

        // Every element is written below, so the buffer starts uninitialized.
        let count = c * h * newWidth
        return [Float](unsafeUninitializedCapacity: count) { dst, initialized in
            sourceIndex.withUnsafeBufferPointer { sxs in
                weight.withUnsafeBufferPointer { dxs in
                    pixels.withUnsafeBufferPointer { src in
                        for row in 0..<(c * h) {
                            let s = src.baseAddress! + row * w
                            let d = dst.baseAddress! + row * newWidth
                            for col in 0..<interpolatedColumns {
                                let ix = sxs[col]
                                let dx = dxs[col]
                                d[col] = (1 - dx) * s[ix] + dx * s[ix + 1]
                            }
                            for col in interpolatedColumns..<newWidth {
                                d[col] = s[w - 1]
                            }
                        }
                    }
                }
            }
            initialized = count
        }
    }

    /// Vertical interpolation of the `channels x sourceHeight x width` buffer `part`.
    private static func verticalPass(_ part: [Float], width: Int, sourceHeight: Int,
                                     newHeight: Int, channels: Int) -> [Float] {
        let hScale = Float(sourceHeight - 1) / Float(newHeight - 1)
        // Every element is written below, so the buffer starts uninitialized.
        let count = channels * newHeight * width
        return [Float](unsafeUninitializedCapacity: count) { dst, initialized in
            part.withUnsafeBufferPointer { src in
                for k in 0..<channels {
                    let plane = src.baseAddress! + k * sourceHeight * width
                    let outPlane = dst.baseAddress! + k * newHeight * width
                    for r in 0..<newHeight {
                        // newHeight == 1: Darknet's 0 * inf is NaN; use row 0 instead.
                        let sy = newHeight == 1 ? 0 : Float(r) * hScale
                        var iy = Int(sy)
                        let dy = sy - Float(iy)
                        // Only reachable when Float(r) is inexact (heights beyond 2^24): stay in bounds.
                        iy = min(iy, r == newHeight - 1 || sourceHeight == 1 ? sourceHeight - 1 : sourceHeight - 2)
                        let p0 = plane + iy * width
                        let o = outPlane + r * width
                        let a = 1 - dy
                        if r == newHeight - 1 || sourceHeight == 1 {
                            for col in 0..<width { o[col] = a * p0[col] }
                        } else {
                            let p1 = p0 + width
                            // Darknet stores (1-dy)*p0 as float, then adds dy*p1: each product
                            // and the sum rounded to float, no fused multiply-add.
                            for col in 0..<width { o[col] = a * p0[col] + dy * p1[col] }
                        }
                    }
                }
            }
            initialized = count
        }
    }
}
