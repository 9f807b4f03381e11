@testable import Darknet
import Foundation

/// Straightforward, obviously-correct versions of the layers, the reference the optimised
/// kernels are tested against.
enum NaiveLayers {
    /// Direct convolution with explicit batch norm (Darknet's formula) and activation.
    static func convolution(input: [Float], shape: TensorShape, spec: ConvolutionalSpec, parameters: [[Float]],
                            dialect: DarknetDialect = .original) -> [Float] {
        let biases = parameters[0]
        let weights = parameters.last!
        let outH = (shape.height + 2 * spec.padding - spec.size) / spec.strideY + 1
        let outW = (shape.width + 2 * spec.padding - spec.size) / spec.strideX + 1
        let d = spec.dilation, pad = spec.padding * spec.dilation
        let inPerGroup = shape.channels / spec.groups, outPerGroup = spec.filters / spec.groups
        var output = [Float](repeating: 0, count: spec.filters * outH * outW)
        for f in 0..<spec.filters {
            let g = f / outPerGroup
            for oy in 0..<outH {
                for ox in 0..<outW {
                    var sum: Double = 0
                    for ci in 0..<inPerGroup {
                        let c = g * inPerGroup + ci
                        for ky in 0..<spec.size {
                            for kx in 0..<spec.size {
                                let iy = oy * spec.strideY + ky * d - pad, ix = ox * spec.strideX + kx * d - pad
                                guard iy >= 0, iy < shape.height, ix >= 0, ix < shape.width else { continue }
                                let w = weights[((f * inPerGroup + ci) * spec.size + ky) * spec.size + kx]
                                sum += Double(w) * Double(input[(c * shape.height + iy) * shape.width + ix])
                            }
                        }
                    }
                    var x = Float(sum)
                    if spec.batchNormalize {
                        let (scale, mean, variance) = (parameters[1][f], parameters[2][f], parameters[3][f])
                        let deviation = dialect == .alexeyAB ? sqrtf(variance + 0.00001) : sqrtf(variance) + 0.000001
                        x = (x - mean) / deviation * scale
                    }
                    output[(f * outH + oy) * outW + ox] = spec.activation.apply(x + biases[f])
                }
            }
        }
        return output
    }

    static func maxpool(input: [Float], shape: TensorShape, spec: MaxpoolSpec) -> [Float] {
        let outH = (shape.height + spec.padding - spec.size) / spec.strideY + 1
        let outW = (shape.width + spec.padding - spec.size) / spec.strideX + 1
        var output = [Float](repeating: 0, count: shape.channels * outH * outW)
        for c in 0..<shape.channels {
            for oy in 0..<outH {
                for ox in 0..<outW {
                    var best = -Float.greatestFiniteMagnitude
                    for ky in 0..<spec.size {
                        for kx in 0..<spec.size {
                            let iy = oy * spec.strideY + ky - spec.padding / 2, ix = ox * spec.strideX + kx - spec.padding / 2
                            guard iy >= 0, iy < shape.height, ix >= 0, ix < shape.width else { continue }
                            best = max(best, input[(c * shape.height + iy) * shape.width + ix])
                        }
                    }
                    output[(c * outH + oy) * outW + ox] = best
                }
            }
        }
        return output
    }
}
