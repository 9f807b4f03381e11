import CDarknetKernels

/// Darknet's max pooling: windows start at `-padding / 2`, cells outside the input are ignored.
@inline(__always)
package func maxpool(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
             size: Int, stride: Int, padding: Int,
             outHeight: Int, outWidth: Int, into output: UnsafeMutablePointer<Float>) {
    let offset = -padding / 2
    if size == 2 && offset == 0 {
        maxpool2x2(input, channels: channels, height: height, width: width, stride: stride,
                   outHeight: outHeight, outWidth: outWidth, into: output)
        return
    }
    for c in 0..<channels {
        let plane = input + c * height * width
        let outPlane = output + c * outHeight * outWidth
        for oy in 0..<outHeight {
            let y0 = oy * stride + offset
            let yStart = max(y0, 0), yEnd = min(y0 + size, height)
            for ox in 0..<outWidth {
                let x0 = ox * stride + offset
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

/// The 2x2 windows of YOLOv3-tiny (stride 2, and stride 1 with the extra pad right/bottom):
/// a window cell outside the input repeats an inside one, which leaves the maximum unchanged.
@inline(__always)
private func maxpool2x2(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, stride: Int,
                        outHeight: Int, outWidth: Int, into output: UnsafeMutablePointer<Float>) {
    swiftdarknet_maxpool2x2(input, channels, height, width, stride, output, outHeight, outWidth)
}

/// Nearest-neighbour enlargement by `stride`, each value multiplied by `scale`.
@inline(__always)
package func upsample(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
              stride: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
    let outWidth = width * stride
    for c in 0..<channels {
        for y in 0..<height {
            let inRow = input + (c * height + y) * width
            let outRow = output + (c * height * stride + y * stride) * outWidth
            for x in 0..<width {
                let value = inRow[x] * scale
                for s in 0..<stride { outRow[x * stride + s] = value }
            }
            for s in 1..<max(stride, 1) { (outRow + s * outWidth).update(from: outRow, count: outWidth) }
        }
    }
}

/// `output = activation(alpha * previous + beta * from)`, element-wise.
@inline(__always)
package func shortcut(_ previous: UnsafePointer<Float>, _ from: UnsafePointer<Float>, count: Int,
              alpha: Float, beta: Float, activation: Activation, into output: UnsafeMutablePointer<Float>) {
    swiftdarknet_weighted_sum(previous, from, count, alpha, beta, output)
    activate(output, count: count, activation: activation)
}
