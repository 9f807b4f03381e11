import CDarknetKernels

/// Which max-pool kernel a window size takes.
enum MaxpoolKernel {
    /// Windows wider than 2 go through the separable row/column passes (which need scratch).
    static func usesRowPass(size: Int) -> Bool { size > 2 }
}

extension VectorKernels {
    /// Darknet's max pooling: windows start at `-padding / 2`, cells outside the input are ignored.
    @inline(__always)
    package func maxpool(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                 size: Int, stride: Int, padding: Int,
                 outHeight: Int, outWidth: Int, into output: UnsafeMutablePointer<Float>) {
        maxpool(input, channels: channels, height: height, width: width, size: size, strideX: stride, strideY: stride,
                padding: padding, outHeight: outHeight, outWidth: outWidth, into: output, scratch: nil)
    }

    /// Darknet's max pooling over 8-bit codes of one quantization (a pool between two int8
    /// convolutions): the codes of the pooled floats, since quantization is monotonic.
    package func maxpoolCodes(_ input: UnsafePointer<UInt8>, channels: Int, height: Int, width: Int, size: Int,
                              strideX: Int, strideY: Int, padding: Int, outHeight: Int, outWidth: Int,
                              into output: UnsafeMutablePointer<UInt8>) {
        swiftdarknet_maxpool_u8(input, channels, height, width, size, strideX, strideY, padding, outHeight, outWidth, output)
    }

    /// Max pooling with separate horizontal and vertical steps (AlexeyAB's `stride_x`,
    /// `stride_y`). Windows wider than 2 need `scratch` of `channels * height * outWidth` floats:
    /// the maximum over a rectangle is the maximum over its rows of the maxima along each row,
    /// so a row pass then a column pass cost `2 * size` comparisons per output instead of `size²`.
    /// Without scratch such windows are scanned directly.
    @inline(__always)
    package func maxpool(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                 size: Int, strideX: Int, strideY: Int, padding: Int,
                 outHeight: Int, outWidth: Int, into output: UnsafeMutablePointer<Float>,
                 scratch: UnsafeMutablePointer<Float>?) {
        let offset = -padding / 2
        if size == 2 && offset == 0 && strideX == strideY {
            maxpool2x2(input, channels: channels, height: height, width: width, stride: strideX,
                       outHeight: outHeight, outWidth: outWidth, into: output)
            return
        }
        if let scratch, MaxpoolKernel.usesRowPass(size: size) {
            for c in 0..<channels {
                let rows = scratch + c * height * outWidth
                maxpoolRows(input + c * height * width, height: height, width: width, size: size, stride: strideX,
                            offset: offset, outWidth: outWidth, into: rows)
                maxpoolColumns(rows, height: height, width: outWidth, size: size, stride: strideY, offset: offset,
                               outHeight: outHeight, into: output + c * outHeight * outWidth)
            }
            return
        }
        for c in 0..<channels {
            let plane = input + c * height * width
            let outPlane = output + c * outHeight * outWidth
            for oy in 0..<outHeight {
                let y0 = oy * strideY + offset
                let yStart = max(y0, 0), yEnd = min(y0 + size, height)
                for ox in 0..<outWidth {
                    let x0 = ox * strideX + offset
                    let xStart = max(x0, 0), xEnd = min(x0 + size, width)
                    var best = -Float.greatestFiniteMagnitude
                    var y = yStart
                    while y < yEnd {
                        let row = plane + y * width
                        var x = xStart
                        while x < xEnd { best = max(best, row[x]); x += 1 }
                        y += 1
                    }
                    outPlane[oy * outWidth + ox] = best
                }
            }
        }
    }

    /// Row pass: `rows[y][ox]` = max of `plane[y][x]` over the window of output column `ox`.
    @inline(__always)
    private func maxpoolRows(_ plane: UnsafePointer<Float>, height: Int, width: Int, size: Int, stride: Int, offset: Int,
                             outWidth: Int, into rows: UnsafeMutablePointer<Float>) {
        for y in 0..<height {
            let inRow = plane + y * width
            let outRow = rows + y * outWidth
            for ox in 0..<outWidth {
                let x0 = ox * stride + offset
                var x = max(x0, 0)
                let xEnd = min(x0 + size, width)
                var best = -Float.greatestFiniteMagnitude
                while x < xEnd { best = max(best, inRow[x]); x += 1 }
                outRow[ox] = best
            }
        }
    }

    /// Column pass over the row maxima: `out[oy][ox]` = max of `rows[y][ox]` over the window's rows.
    @inline(__always)
    private func maxpoolColumns(_ rows: UnsafePointer<Float>, height: Int, width: Int, size: Int, stride: Int, offset: Int,
                                outHeight: Int, into output: UnsafeMutablePointer<Float>) {
        for oy in 0..<outHeight {
            let y0 = oy * stride + offset
            let yStart = max(y0, 0), yEnd = min(y0 + size, height)
            let outRow = output + oy * width
            outRow.update(repeating: -Float.greatestFiniteMagnitude, count: width)
            var y = yStart
            while y < yEnd {
                let row = rows + y * width
                for x in 0..<width { outRow[x] = max(outRow[x], row[x]) }
                y += 1
            }
        }
    }

    /// The 2x2 windows of YOLOv3-tiny (stride 2, and stride 1 with the extra pad right/bottom):
    /// a window cell outside the input repeats an inside one, which leaves the maximum unchanged.
    @inline(__always)
    private func maxpool2x2(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, stride: Int,
                            outHeight: Int, outWidth: Int, into output: UnsafeMutablePointer<Float>) {
        functions.pointee.maxpool2x2(input, channels, height, width, stride, output, outHeight, outWidth)
    }

    /// AlexeyAB's local average pooling: windows placed as Darknet's max pool places them, each
    /// output the mean of the window cells inside the input (the sum divided by their count).
    package func localAveragePool(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                                  size: Int, strideX: Int, strideY: Int, padding: Int,
                                  outHeight: Int, outWidth: Int, into output: UnsafeMutablePointer<Float>) {
        let offset = -padding / 2
        for c in 0..<channels {
            let plane = input + c * height * width
            let out = output + c * outHeight * outWidth
            for oy in 0..<outHeight {
                let rows = max(0, offset + oy * strideY)..<min(height, offset + oy * strideY + size)
                for ox in 0..<outWidth {
                    let columns = max(0, offset + ox * strideX)..<min(width, offset + ox * strideX + size)
                    var sum: Float = 0
                    for y in rows {
                        for x in columns { sum += plane[y * width + x] }
                    }
                    out[oy * outWidth + ox] = sum / Float(rows.count * columns.count)
                }
            }
        }
    }
}
