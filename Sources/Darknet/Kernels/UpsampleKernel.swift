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
