/// Darknet's `[reorg]` forward: `reorg_cpu(input, w, h, c, batch, stride, forward: 0, output)`
/// with the input's `width x height x channels`.
///
/// For every position `(k, j, i)` of a `width x height x channels` grid, the output at that
/// flat position takes the input value at `(k % outC, j*s + (k / outC) / s,
/// i*s + (k / outC) % s)` of a `(width*s) x (height*s) x outC` grid, `outC = channels / s²`.
/// Width, height and channels must be multiples of `s`, `s` and `s²`.
@inline(__always)
package func reorg(_ input: UnsafePointer<Float>, width: Int, height: Int, channels: Int, stride s: Int,
                   into output: UnsafeMutablePointer<Float>) {
    let outChannels = channels / (s * s)
    let bigWidth = width * s, bigHeight = height * s
    var index = 0
    for k in 0..<channels {
        let c2 = k % outChannels
        let offset = k / outChannels
        let dx = offset % s, dy = offset / s
        for j in 0..<height {
            let row = input + (c2 * bigHeight + j * s + dy) * bigWidth + dx
            for i in 0..<width {
                output[index] = row[i * s]
                index += 1
            }
        }
    }
}
