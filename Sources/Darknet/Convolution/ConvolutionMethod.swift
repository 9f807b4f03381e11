/// One algorithm planned for one convolution: the memory it needs and how it lays out the
/// layer's weights. The planner makes one from a `ConvolutionCandidate` when the algorithm's
/// rule in `ConvolutionChoice` picks it; loading turns it into a `ConvolutionKernel` holding the
/// weights in the algorithm's own layout. A plan only sizes: it never runs.
///
/// Adding an algorithm: one type conforming to this protocol (and its kernel), and one line in
/// `ConvolutionChoice.rules`.
package protocol ConvolutionMethod: Sendable, Equatable {
    /// The algorithm's name.
    static var algorithm: ConvolutionAlgorithm { get }
    /// Whether the algorithm computes `candidate` at all (the shapes, strides, groups, dilation,
    /// activation and arithmetic it takes): what it can do, not whether it is the fastest, which
    /// the planner's rules decide.
    static func computes(_ candidate: ConvolutionCandidate) -> Bool
    /// The plan of a candidate the algorithm computes.
    init(_ candidate: ConvolutionCandidate)
    /// Floats of the network's shared workspace one run needs (`Int.max` if the count overflows).
    var workspaceCount: Int { get }
    /// Floats of scratch each worker thread needs (`Int.max` if the count overflows).
    var scratchCount: Int { get }
    /// Floats the weights take in the algorithm's layout (`Int.max` if the count overflows).
    var weightCount: Int { get }
    /// Reads the layer's weights from `source` and lays them out for the algorithm.
    func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel
}

/// A loaded convolution: the weights in its algorithm's layout, ready to run any number of
/// times, from any thread, on buffers the session owns.
package protocol ConvolutionKernel: Sendable {
    /// Computes `activation(convolution(input) + bias)` into `buffers.output`.
    func run(_ buffers: ConvolutionBuffers)
    /// The learned arrays the kernel holds, in its layout (tests compare them).
    var parameterArrays: [[Float]] { get }
}

extension ConvolutionMethod {
    /// The kernel for weights already in memory: row-major `filters x kernelArea`, batch norm
    /// folded, and one bias per filter (tests and benchmarks).
    package func load(weights: [Float], biases: [Float]) -> any ConvolutionKernel {
        do {
            return try ConvolutionWeightSource.withFolded(weights: weights, biases: biases) { source throws(WeightsError) in
                try load(&source)
            }
        } catch {
            preconditionFailure("weights in memory: \(error)")
        }
    }
}

/// A convolution layer's spec and the shapes it maps between.
package struct ConvolutionShapes: Sendable, Equatable {
    package let conv: ConvolutionalSpec
    package let input: TensorShape
    package let output: TensorShape

    package init(conv: ConvolutionalSpec, input: TensorShape, output: TensorShape) {
        self.conv = conv
        self.input = input
        self.output = output
    }

    var isUnitStride: Bool { conv.strideX == 1 && conv.strideY == 1 }
    /// A 1x1 stride-1 unpadded convolution, whose input already is the GEMM's B matrix.
    var isPointwise: Bool { conv.size == 1 && isUnitStride && conv.padding == 0 }
    /// K of the convolution's GEMM: input channels per group times the kernel area.
    var kernelArea: Int { input.channels / conv.groups * conv.size * conv.size }
    /// Bytes of the float weights, as a Double (no overflow).
    var weightBytes: Double {
        Double(conv.filters) * Double(input.channels / conv.groups) * Double(conv.size * conv.size)
            * Double(MemoryLayout<Float>.size)
    }
}

/// A convolution as the planner sees it when it picks an algorithm: the shapes, the machine, the
/// strategy and tuning of the options, and the arithmetic the precision rules give it.
package struct ConvolutionCandidate: Sendable, Equatable {
    package let shapes: ConvolutionShapes
    /// The CPU the plan is for.
    package let cpu: CPUFeatures
    /// The vector kernels the plan runs (`NetworkPlan.vectorKernels`).
    package let kernels: VectorKernels
    package let strategy: ConvolutionStrategy
    package let tuning: ConvolutionTuning
    /// For a convolution the precision rules run in integers, its input quantization and
    /// integer kernels (8-bit, or 16-bit with `sixteenBitMagnitude`); nil: float.
    package let integer: Int8LayerQuantization?
    /// The arithmetic the rules give it (`ArithmeticChoice`): the planner picks among the
    /// algorithms computing in it.
    package let arithmetic: Arithmetic
    /// For `.bfloat16` and `.float16`, the kernel set it runs.
    package let reducedKernels: ReducedKernels?

    package init(shapes: ConvolutionShapes, cpu: CPUFeatures, kernels: VectorKernels? = nil,
                 strategy: ConvolutionStrategy = .fastest, tuning: ConvolutionTuning = ConvolutionTuning(),
                 integer: Int8LayerQuantization? = nil, arithmetic: Arithmetic? = nil, reducedKernels: ReducedKernels? = nil) {
        self.shapes = shapes
        self.cpu = cpu
        self.kernels = kernels ?? cpu.vectorKernels
        self.strategy = strategy
        self.tuning = tuning
        self.integer = integer
        let computed = arithmetic ?? integer.map { $0.isEightBit ? .int8 : .int16 } ?? .float32
        self.arithmetic = computed
        self.reducedKernels = cpu.reducedKernels(for: computed, pinned: reducedKernels)
    }

    var conv: ConvolutionalSpec { shapes.conv }
    var input: TensorShape { shapes.input }
    var output: TensorShape { shapes.output }
    var fastest: Bool { strategy == .fastest }
    /// Whether the precision rules give this convolution 8-bit input codes.
    var eightBit: Bool { integer?.isEightBit == true }
    /// Whether they give it 16-bit input codes.
    var sixteenBit: Bool { integer.map { !$0.isEightBit } ?? false }
}

/// Thresholds of the planner's rules that tests lower to reach the paths small layers do not
/// take (`PlanOptions`).
package struct ConvolutionTuning: Sendable, Equatable, Hashable {
    /// Largest F(4x4, 3x3) weights (bytes) a small-output layer takes `.winogradFewTiles` for;
    /// above, `.winogradF23`.
    package var fewTileWeightLimit = WinogradFewTiles.weightLimit
    /// Largest F(4x4, 3x3) weights (bytes) a large-output layer takes `.winogradBands` for;
    /// above, `.winograd`.
    package var bandWeightLimit = WinogradBands.weightLimit
    /// Largest F(4x4, 3x3) weights (bytes) an output of 52x52 or more takes `.winogradBands` for
    /// where one band of a tile row fits the core's L2; above, the paths before.
    package var largeBandWeightLimit = WinogradBands.largeWeightLimit
    /// Fewest input channels bfloat16's F(3x3, 3x3) takes (`ReducedConvolutionShapes.takenByF33`).
    package var bfloat16WinogradF33Channels = ReducedConvolutionShapes.fewestChannelsForBFloat16WinogradF33

    package init() {}
}

/// A convolution's planned algorithm, as a layer's plan keeps it.
package struct PlannedConvolution: Sendable, Equatable {
    package let method: any ConvolutionMethod
    /// Why it computes in its algorithm's arithmetic (the `ArithmeticChoice` rule).
    package let reason: String

    package init(_ method: any ConvolutionMethod, reason: String = "") {
        self.method = method
        self.reason = reason
    }

    package var algorithm: ConvolutionAlgorithm { type(of: method).algorithm }

    package static func == (a: PlannedConvolution, b: PlannedConvolution) -> Bool {
        func same<M: ConvolutionMethod>(_ x: M) -> Bool { (b.method as? M) == x }
        return a.reason == b.reason && same(a.method)
    }
}

/// The memory one convolution run reads and writes.
package struct ConvolutionBuffers {
    package var input: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    /// The shared workspace (`workspaceCount` floats or more).
    package var workspace: UnsafeMutablePointer<Float>
    /// Worker `w`'s scratch is `scratchCount` floats at `scratch + w * scratchStride`.
    package var scratch: UnsafeMutablePointer<Float>
    package var scratchStride: Int
    package var split: ThreadSplit
    /// The vector kernels the plan picked.
    package var kernels: VectorKernels
    /// Where the next layer's 2x2/2 max pool goes when the kernel computes it too (only the
    /// sliding window does, when the plan fuses it); `nil` otherwise.
    package var pooled: UnsafeMutablePointer<Float>?
    /// What the `[shortcut]` after the convolution adds to its output, when the convolution adds it
    /// too (only the Winograd paths do, when the plan fuses it: `NetworkPlan.fusibleShortcuts`): the
    /// output is then `activation(convolution) + residual`, the shortcut's; `nil` otherwise.
    package var residual: UnsafePointer<Float>?
    /// For an integer kernel: whether `input` holds 8-bit codes in its input quantization
    /// already (written by the int8 convolution before it), not floats.
    package var inputIsCodes = false
    /// For an integer kernel: write `output` as 8-bit codes in this quantization (the next int8
    /// convolution's input), not as floats; nil: floats.
    package var outputCodes: Int8TensorQuantization? = nil

    package init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, workspace: UnsafeMutablePointer<Float>,
                 scratch: UnsafeMutablePointer<Float>, scratchStride: Int, split: ThreadSplit, kernels: VectorKernels,
                 pooled: UnsafeMutablePointer<Float>? = nil) {
        self.input = input
        self.output = output
        self.workspace = workspace
        self.scratch = scratch
        self.scratchStride = scratchStride
        self.split = split
        self.kernels = kernels
        self.pooled = pooled
    }

    /// Writes group `group`'s column matrix (im2col, `kernelArea x plane`; with `rows`, only
    /// those output rows: `kernelArea x rows.count * width`) into the workspace, split over the
    /// threads by channel: the prologue of the GEMM paths.
    func writeColumns(_ shapes: ConvolutionShapes, group: Int, rows: Range<Int>? = nil) {
        let conv = shapes.conv, input = shapes.input, output = shapes.output
        let groupChannels = input.channels / conv.groups, kernelRows = conv.size * conv.size
        let positions = rows.map { $0.count * output.width } ?? output.planeSize
        let groupInput = self.input + group * groupChannels * input.planeSize, workspace = workspace, kernels = kernels
        split(groupChannels) { channels, _ in
            kernels.im2col(groupInput + channels.lowerBound * input.planeSize, channels: channels.count,
                           height: input.height, width: input.width, size: conv.size, strideX: conv.strideX,
                           strideY: conv.strideY, dilation: conv.dilation, padding: conv.padding,
                           outHeight: output.height, outWidth: output.width, rows: rows,
                           into: workspace + channels.lowerBound * kernelRows * positions)
        }
    }

    /// Adds the biases and applies `activation` over `filters` planes of `planeSize` of the output,
    /// split by filter: the epilogue of the GEMM paths.
    func addBiases(_ biases: UnsafePointer<Float>, filters: Int, planeSize: Int, activation: Activation) {
        let output = output, kernels = kernels
        split(filters, minimumPiece: 4) { range, _ in
            kernels.addBiasAndActivate(output + range.lowerBound * planeSize, biases: biases + range.lowerBound,
                                       channels: range.count, planeSize: planeSize, activation: activation)
        }
    }

    /// Applies `activation` in place over `filters` planes of `planeSize` of the output, split by
    /// filter (after a kernel that added the biases but could not fuse the activation).
    func activate(filters: Int, planeSize: Int, activation: Activation) {
        let output = output, kernels = kernels
        split(filters, minimumPiece: 4) { range, _ in
            kernels.activate(output + range.lowerBound * planeSize, count: range.count * planeSize, activation: activation)
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

extension PlannedConvolution {
    /// Reads the convolution's parameters from `reader` (biases, [batch-norm statistics],
    /// weights, as Darknet stores them) and lays them out for the planned algorithm.
    func load(from reader: inout WeightsReader, spec: ConvolutionalSpec, input: TensorShape,
              dialect: DarknetDialect) throws(WeightsError) -> any ConvolutionKernel {
        var source = try ConvolutionWeightSource(reading: reader, spec: spec, inputChannels: input.channels,
                                                 dialect: dialect)
        let kernel = try method.load(&source)
        reader = source.reader
        return kernel
    }
}

/// A float algorithm: its kernel is the plan plus the weights in its layout
/// (`FloatConvolutionKernel`).
package protocol FloatConvolutionMethod: ConvolutionMethod {
    /// The layer's folded weights in this algorithm's layout, and the folded biases (default:
    /// row-major `filters x kernelArea` as Darknet stores them, `ConvolutionWeightSource.folded()`).
    func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float])
    /// Computes the convolution with `weights` in this algorithm's layout.
    func run(weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, _ buffers: ConvolutionBuffers)
}

extension FloatConvolutionMethod {
    package func layOut(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> (weights: [Float], biases: [Float]) {
        try source.folded()
    }

    package func load(_ source: inout ConvolutionWeightSource) throws(WeightsError) -> any ConvolutionKernel {
        let (weights, biases) = try layOut(&source)
        return FloatConvolutionKernel(plan: self, weights: weights, biases: biases)
    }
}

/// A float algorithm's loaded kernel: its plan and the weights in its layout.
struct FloatConvolutionKernel<Method: FloatConvolutionMethod>: ConvolutionKernel {
    let plan: Method
    let weights: [Float]
    let biases: [Float]

    var parameterArrays: [[Float]] { [weights, biases] }

    func run(_ buffers: ConvolutionBuffers) {
        weights.withUnsafeBufferPointer { weights in
            biases.withUnsafeBufferPointer { biases in
                plan.run(weights: weights.baseAddress!, biases: biases.baseAddress!, buffers)
            }
        }
    }
}
