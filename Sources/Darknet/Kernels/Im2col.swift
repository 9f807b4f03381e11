import CDarknetKernels

extension VectorKernels {
    /// Unfolds a CHW image into the `(channels * size * size) x (outHeight * outWidth)` matrix
    /// whose product with the filter matrix is the convolution (Darknet's row order:
    /// channel, then kernel row, then kernel column). Padded cells are zero.
    @inline(__always)
    package func im2col(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                size: Int, stride: Int, padding: Int,
                outHeight: Int, outWidth: Int,
                into columns: UnsafeMutablePointer<Float>) {
        im2col(input, channels: channels, height: height, width: width, size: size,
               strideX: stride, strideY: stride, dilation: 1, padding: padding,
               outHeight: outHeight, outWidth: outWidth, into: columns)
    }

    /// The general form (AlexeyAB's `im2col_cpu_ext`): separate horizontal and vertical steps,
    /// and kernel taps `dilation` cells apart with the padding multiplied by `dilation`. With
    /// `rows`, only those output rows: a `(channels * size * size) x (rows.count * outWidth)` band.
    @inline(__always)
    package func im2col(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                size: Int, strideX: Int, strideY: Int, dilation: Int, padding: Int,
                outHeight: Int, outWidth: Int, rows: Range<Int>? = nil,
                into columns: UnsafeMutablePointer<Float>) {
        let rows = rows ?? 0..<outHeight
        let outPlane = rows.count * outWidth
        let pad = padding * dilation
        var row = 0
        for c in 0..<channels {
            let plane = input + c * height * width
            for ky in 0..<size {
                for kx in 0..<size {
                    let destination = columns + row * outPlane
                    row += 1
                    for oy in rows {
                        let iy = oy * strideY + ky * dilation - pad
                        let outRow = destination + (oy - rows.lowerBound) * outWidth
                        if iy < 0 || iy >= height {
                            outRow.update(repeating: 0, count: outWidth)
                            continue
                        }
                        let inRow = plane + iy * width
                        let shift = kx * dilation - pad
                        if strideX == 1 {
                            // Contiguous run with zero borders.
                            let first = max(0, -shift)
                            let last = min(outWidth, width - shift)
                            if first > 0 { outRow.update(repeating: 0, count: min(first, outWidth)) }
                            if last > first { (outRow + first).update(from: inRow + first + shift, count: last - first) }
                            if last < outWidth { (outRow + max(last, 0)).update(repeating: 0, count: outWidth - max(last, 0)) }
                        } else {
                            // Columns whose source ix = ox * strideX + shift lies inside the row.
                            let first = min(outWidth, shift >= 0 ? 0 : (-shift + strideX - 1) / strideX)
                            let last = max(first, min(outWidth, width - shift > 0 ? (width - shift - 1) / strideX + 1 : 0))
                            if first > 0 { outRow.update(repeating: 0, count: first) }
                            if strideX == 2 {
                                functions.pointee.copy_even(inRow + first * 2 + shift, outRow + first, last - first)
                            } else {
                                var source = inRow + first * strideX + shift
                                for ox in first..<last {
                                    outRow[ox] = source.pointee
                                    source += strideX
                                }
                            }
                            if last < outWidth { (outRow + last).update(repeating: 0, count: outWidth - last) }
                        }
                    }
                }
            }
        }
    }
}
