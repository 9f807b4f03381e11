/// Darknet's `[reorg]` forward: `reorg_cpu(input, w, h, c, batch, stride, forward: 0, output)`
/// with the input's `width x height x channels` (the small grid; the big one is `s` times
/// wider and higher with `channels / s²` planes).
///
/// For every position `(k, j, i)` of a `width x height x channels` grid, the output at that
/// flat position takes the input value at `(k % outC, j*s + (k / outC) / s,
/// i*s + (k / outC) % s)` of a `(width*s) x (height*s) x outC` grid, `outC = channels / s²`.
/// Width, height and channels must be multiples of `s`, `s` and `s²`. With `reverse`
/// (`reorg_cpu` with `forward=1`) the same index pairs move the other way.
@inline(__always)
package func reorg(_ input: UnsafePointer<Float>, width: Int, height: Int, channels: Int, stride s: Int,
                   reverse: Bool = false, into output: UnsafeMutablePointer<Float>) {
    let outChannels = channels / (s * s)
    let bigWidth = width * s, bigHeight = height * s
    var index = 0
    for k in 0..<channels {
        let c2 = k % outChannels
        let offset = k / outChannels
        let dx = offset % s, dy = offset / s
        for j in 0..<height {
            let big = (c2 * bigHeight + j * s + dy) * bigWidth + dx
            if reverse {
                for i in 0..<width { output[big + i * s] = input[index + i] }
            } else {
                for i in 0..<width { output[index + i] = input[big + i * s] }
            }
            index += width
        }
    }
}

/// Darknet's `flatten` as `[reorg] flatten=1` uses it: planar `channels x planeSize` values to
/// interleaved `planeSize x channels` (`reverse`: back).
@inline(__always)
package func interleaveChannels(_ input: UnsafePointer<Float>, planeSize: Int, channels: Int, reverse: Bool,
                                into output: UnsafeMutablePointer<Float>) {
    for c in 0..<channels {
        for i in 0..<planeSize {
            if reverse {
                output[c * planeSize + i] = input[i * channels + c]
            } else {
                output[i * channels + c] = input[c * planeSize + i]
            }
        }
    }
}
