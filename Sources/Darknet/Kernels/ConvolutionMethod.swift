/// One way of computing a convolution (a `ConvolutionAlgorithm`), for one layer's shapes: what
/// memory it needs and how it runs. The planner builds one to size the buffers; the network
/// builds one per convolution, once, and the forward pass and the micro-benchmarks run it.
package protocol ConvolutionMethod: Sendable {
    /// Floats of the network's shared workspace one run needs.
    var workspaceCount: Int { get }
    /// Floats of scratch each worker thread needs.
    var scratchCount: Int { get }
    /// Floats the weights take in the method's layout (`Int.max` if the count overflows).
    var weightCount: Int { get }
    /// Computes `activation(convolution(input) + bias)` into `buffers.output`.
    func run(_ buffers: ConvolutionBuffers)
    /// The method the network runs for `layer`, and the parameters `run` is given. Methods that
    /// keep the weights in their own form (int8) take them here, once, at load; the others
    /// return themselves and `parameters` (the default).
    func bound(to parameters: ConvolutionParameters, layer: LayerPlan) -> (any ConvolutionMethod, ConvolutionParameters)
}

extension ConvolutionMethod {
    package func bound(to parameters: ConvolutionParameters, layer: LayerPlan) -> (any ConvolutionMethod, ConvolutionParameters) {
        (self, parameters)
    }
}

/// A convolution layer's spec and the shapes it maps between.
package struct ConvolutionShapes: Sendable {
    package let conv: ConvolutionalSpec
    package let input: TensorShape
    package let output: TensorShape
}

/// A method built from the layer's spec and shapes alone (all but Winograd, which also needs
/// its algorithm variant).
package protocol ShapedConvolutionMethod: ConvolutionMethod {
    var shapes: ConvolutionShapes { get }
    init(shapes: ConvolutionShapes)
}

extension ShapedConvolutionMethod {
    var conv: ConvolutionalSpec { shapes.conv }
    var inputShape: TensorShape { shapes.input }
    var outputShape: TensorShape { shapes.output }

    package init(_ conv: ConvolutionalSpec, inputShape: TensorShape, outputShape: TensorShape) {
        self.init(shapes: ConvolutionShapes(conv: conv, input: inputShape, output: outputShape))
    }
}

/// The memory one convolution run reads and writes.
package struct ConvolutionBuffers {
    package var input: UnsafePointer<Float>
    /// Weights in the method's layout (see `ConvolutionParameters`).
    package var weights: UnsafePointer<Float>
    package var biases: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    /// The shared workspace (`workspaceCount` floats or more).
    package var workspace: UnsafeMutablePointer<Float>
    /// Worker `w`'s scratch is `scratchCount` floats at `scratch + w * scratchStride`.
    package var scratch: UnsafeMutablePointer<Float>
    package var scratchStride: Int
    package var split: ThreadSplit
    /// Where the next layer's 2x2/2 max pool goes when the method computes it too (only the
    /// sliding window does, when the plan fuses it); `nil` otherwise.
    package var pooled: UnsafeMutablePointer<Float>?
    /// For an int8 method: whether `input` holds 8-bit codes in its input quantization already
    /// (written by the int8 convolution before it), not floats.
    package var inputIsCodes = false
    /// For an int8 method: write `output` as 8-bit codes in this quantization (the next int8
    /// convolution's input), not as floats; nil: floats.
    package var outputCodes: Int8TensorQuantization? = nil

    package init(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
                 output: UnsafeMutablePointer<Float>, workspace: UnsafeMutablePointer<Float>,
                 scratch: UnsafeMutablePointer<Float>, scratchStride: Int, split: ThreadSplit,
                 pooled: UnsafeMutablePointer<Float>? = nil) {
        self.input = input
        self.weights = weights
        self.biases = biases
        self.output = output
        self.workspace = workspace
        self.scratch = scratch
        self.scratchStride = scratchStride
        self.split = split
        self.pooled = pooled
    }
}

extension ConvolutionAlgorithm {
    /// The method computing `conv` by this algorithm from `input` to `output`.
    package func method(for conv: ConvolutionalSpec, input: TensorShape, output: TensorShape) -> any ConvolutionMethod {
        switch self {
        case .direct, .im2col: Im2colConvolution(conv, inputShape: input, outputShape: output)
        case .pointwise: PointwiseConvolution(conv, inputShape: input, outputShape: output)
        case .im2colBands: Im2colBands(conv, inputShape: input, outputShape: output)
        case .slidingWindow: SlidingWindowConvolution(conv, inputShape: input, outputShape: output)
        case .slidingWindowStride2: SlidingWindowStride2(conv, inputShape: input, outputShape: output)
        case .winograd, .winogradFewTiles, .winogradF23, .winogradBands:
            WinogradConvolution(algorithm: self, inputShape: input, outputShape: output, activation: conv.activation)
        case .int8Im2col: Int8Im2colConvolution(conv, inputShape: input, outputShape: output)
        case .int8Direct: Int8DirectConvolution(conv, inputShape: input, outputShape: output)
        case .int16Direct: Int16DirectConvolution(conv, inputShape: input, outputShape: output)
        }
    }
}

extension ConvolutionBuffers {
    /// Adds the biases and applies `activation` over `filters` planes of `planeSize` of the output,
    /// split by filter: the epilogue of the GEMM paths.
    func addBiases(filters: Int, planeSize: Int, activation: Activation) {
        let output = output, biases = biases
        split(filters, minimumPiece: 4) { range, _ in
            addBiasAndActivate(output + range.lowerBound * planeSize, biases: biases + range.lowerBound,
                               channels: range.count, planeSize: planeSize, activation: activation)
        }
    }
}

extension ConvolutionalSpec {
    /// Floats of row-major `filters x kernelArea` weights reading `inputChannels` (`Int.max` on overflow).
    func gemmWeightCount(inputChannels: Int) -> Int {
        saturatingProduct(filters, inputChannels / groups, size, size)
    }
}

/// The product of `factors`, or `Int.max` if it overflows (the planner reports that as an error).
func saturatingProduct(_ factors: Int...) -> Int {
    var result = 1
    for factor in factors {
        let (value, overflow) = result.multipliedReportingOverflow(by: factor)
        if overflow { return .max }
        result = value
    }
    return result
}
