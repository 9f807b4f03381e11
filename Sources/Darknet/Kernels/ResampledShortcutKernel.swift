/// Darknet's `shortcut_cpu` for inputs of different shapes (see `ShortcutGeometry`): `output`
/// already holds the previous layer's values (`toWidth x toHeight`); the overlapping values
/// become `alpha * output + beta * from`. The activation is applied afterwards by the caller.
@inline(__always)
func resampledShortcut(_ from: UnsafePointer<Float>, fromWidth: Int, fromHeight: Int,
                       into output: UnsafeMutablePointer<Float>, toWidth: Int, toHeight: Int,
                       geometry g: ShortcutGeometry, alpha: Float, beta: Float) {
    for k in 0..<g.channels {
        for j in 0..<g.height {
            let outRow = output + (k * toHeight + j * g.sample) * toWidth
            let fromRow = from + (k * fromHeight + j * g.stride) * fromWidth
            for i in 0..<g.width {
                outRow[i * g.sample] = alpha * outRow[i * g.sample] + beta * fromRow[i * g.stride]
            }
        }
    }
}
