import Foundation

/// Adds each channel's bias and applies `activation`, in place, over a CHW tensor.
@inline(__always)
package func addBiasAndActivate(_ data: UnsafeMutablePointer<Float>, biases: UnsafePointer<Float>,
                        channels: Int, planeSize: Int, activation: Activation) {
    for c in 0..<channels {
        let plane = data + c * planeSize
        let bias = biases[c]
        switch activation {
        case .linear:
            for i in 0..<planeSize { plane[i] += bias }
        case .leaky:
            for i in 0..<planeSize {
                let x = plane[i] + bias
                plane[i] = x > 0 ? x : 0.1 * x
            }
        case .relu:
            for i in 0..<planeSize { plane[i] = max(plane[i] + bias, 0) }
        case .logistic:
            for i in 0..<planeSize { plane[i] = 1 / (1 + expf(-(plane[i] + bias))) }
        case .mish, .swish:
            for i in 0..<planeSize { plane[i] += bias }
            activate(plane, count: planeSize, activation: activation)
        default:
            for i in 0..<planeSize { plane[i] = activation.apply(plane[i] + bias) }
        }
    }
}

/// Applies `activation` in place to `count` values.
@inline(__always)
package func activate(_ data: UnsafeMutablePointer<Float>, count: Int, activation: Activation) {
    switch activation {
    case .linear: return
    case .leaky:
        for i in 0..<count { let x = data[i]; data[i] = x > 0 ? x : 0.1 * x }
    case .logistic:
        for i in 0..<count { data[i] = 1 / (1 + expf(-data[i])) }
    case .mish:
        // YOLOv4's activation: a specialised loop, same arithmetic as `Activation.apply`.
        let threshold = Activation.mishThreshold
        for i in 0..<count {
            let x = data[i]
            let softplus: Float = x > threshold ? x : (x < -threshold ? expf(x) : logf(expf(x) + 1))
            data[i] = x * (2 / (1 + expf(-2 * softplus)) - 1)
        }
    case .swish:
        for i in 0..<count { let x = data[i]; data[i] = x * (1 / (1 + expf(-x))) }
    default:
        for i in 0..<count { data[i] = activation.apply(data[i]) }
    }
}
