@testable import Darknet
import TestSupport

/// A one-convolution network's shapes with random weights, biases and input (weights and biases
/// in [-1, 1], input in [-2, 2]), linear activation, "same" padding.
struct RandomConvolutionLayer {
    struct NotAConvolution: Error {}

    let shapes: ConvolutionShapes
    let weights: [Float], biases: [Float], x: [Float]

    init(channels: Int, height: Int, width: Int, filters: Int, size: Int, stride: Int, seed: UInt64) throws {
        let text = "[net]\nwidth=\(width)\nheight=\(height)\nchannels=\(channels)\n"
            + "[convolutional]\nfilters=\(filters)\nsize=\(size)\nstride=\(stride)\npad=1\nactivation=linear\n"
        let plan = try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: "random.cfg"))
        guard case .convolutional(let conv) = plan.layers[0].spec.kind else { throw NotAConvolution() }
        shapes = ConvolutionShapes(conv: conv, input: plan.layers[0].inputShape, output: plan.layers[0].outputShape)
        var generator = SplitMix64(seed: seed)
        weights = (0..<filters * shapes.kernelArea).map { _ in generator.nextFloat(in: -1...1) }
        biases = (0..<filters).map { _ in generator.nextFloat(in: -1...1) }
        x = (0..<shapes.input.count).map { _ in generator.nextFloat(in: -2...2) }
    }

    /// `method`'s output, with the layer's weights, biases and input unless given (portable float kernels).
    func run(_ method: any ConvolutionMethod, weights: [Float]? = nil, biases: [Float]? = nil, input: [Float]? = nil,
             split: ThreadSplit) -> [Float] {
        runConvolution(method, weights: weights ?? self.weights, biases: biases ?? self.biases, input: input ?? x,
                       outputCount: shapes.output.count, split: split, kernels: .portable)
    }

    /// float32's reference path: im2col and the GEMM.
    var float32Method: Im2colConvolution {
        Im2colConvolution(ConvolutionCandidate(shapes: shapes, cpu: .current, kernels: .portable, strategy: .im2colOnly))
    }

    /// float32's reference result (`float32Method`, one thread).
    var float32Output: [Float] { run(float32Method, split: ThreadSplit(threads: 1)) }
}
