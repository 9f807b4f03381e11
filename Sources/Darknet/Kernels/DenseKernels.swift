/// Global average pooling: each plane's float sum in index order, divided by its size
/// (Darknet's `forward_avgpool_layer`).
@inline(__always)
package func averagePool(_ input: UnsafePointer<Float>, channels: Int, planeSize: Int,
                         into output: UnsafeMutablePointer<Float>) {
    let divisor = Float(planeSize)
    for c in 0..<channels {
        let plane = input + c * planeSize
        var sum: Float = 0
        for i in 0..<planeSize { sum += plane[i] }
        output[c] = sum / divisor
    }
}

/// `out = x * factor[c] + shift[c]` per channel: a folded stand-alone batch norm.
@inline(__always)
package func scaleAndShift(_ input: UnsafePointer<Float>, factors: UnsafePointer<Float>, shifts: UnsafePointer<Float>,
                           channels: Int, planeSize: Int, into output: UnsafeMutablePointer<Float>) {
    for c in 0..<channels {
        let source = input + c * planeSize, destination = output + c * planeSize
        let factor = factors[c], shift = shifts[c]
        for i in 0..<planeSize { destination[i] = source[i] * factor + shift }
    }
}

/// The centred `outWidth x outHeight` window of each plane (Darknet's `forward_crop_layer`
/// at inference: offsets `(width - outWidth) / 2`, `(height - outHeight) / 2`), each value
/// mapped to `value * scale + shift`.
@inline(__always)
package func centreCrop(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                        outHeight: Int, outWidth: Int, scale: Float, shift: Float,
                        into output: UnsafeMutablePointer<Float>) {
    let dy = (height - outHeight) / 2, dx = (width - outWidth) / 2
    var index = 0
    for c in 0..<channels {
        for y in 0..<outHeight {
            let row = input + (c * height + y + dy) * width + dx
            for x in 0..<outWidth {
                output[index] = row[x] * scale + shift
                index += 1
            }
        }
    }
}
