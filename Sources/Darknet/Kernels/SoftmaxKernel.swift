import Foundation

/// Darknet's `softmax`: `e_i = exp(x_i / t - max / t)` (the exponential in double, stored as
/// float), `out_i = e_i / sum(e)` with a float sum in index order. `input` and `output` may
/// be the same buffer.
@inline(__always)
package func softmax(_ input: UnsafePointer<Float>, count: Int, temperature: Float,
                     stride: Int = 1, into output: UnsafeMutablePointer<Float>) {
    var largest = -Float.greatestFiniteMagnitude
    for i in 0..<count where input[i * stride] > largest { largest = input[i * stride] }
    var sum: Float = 0
    for i in 0..<count {
        let e = Float(exp(Double(input[i * stride] / temperature - largest / temperature)))
        sum += e
        output[i * stride] = e
    }
    for i in 0..<count { output[i * stride] /= sum }
}
