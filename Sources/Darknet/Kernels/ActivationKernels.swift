import CDarknetKernels
import Foundation

extension Activation {
    /// This activation's code in the C element-wise kernels, if they compute it.
    var simdKernelCode: Int32? {
        switch self {
        case .linear: Int32(SWIFTDARKNET_ACTIVATION_LINEAR)
        case .leaky: Int32(SWIFTDARKNET_ACTIVATION_LEAKY)
        case .relu: Int32(SWIFTDARKNET_ACTIVATION_RELU)
        case .logistic: Int32(SWIFTDARKNET_ACTIVATION_LOGISTIC)
        default: nil
        }
    }
}

extension VectorKernels {
    /// Adds each channel's bias and applies `activation`, in place, over a CHW tensor.
    @inline(__always)
    package func addBiasAndActivate(_ data: UnsafeMutablePointer<Float>, biases: UnsafePointer<Float>,
                            channels: Int, planeSize: Int, activation: Activation) {
        if let code = activation.simdKernelCode {
            functions.pointee.bias_activate(data, biases, channels, planeSize, code)
            return
        }
        for c in 0..<channels {
            let plane = data + c * planeSize
            let bias = biases[c]
            switch activation {
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
        if activation == .linear { return }
        if let code = activation.simdKernelCode {
            functions.pointee.activate(data, count, code)
            return
        }
        switch activation {
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
}
