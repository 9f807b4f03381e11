import Foundation

/// One layer with its shapes, cost and data dependencies worked out.
public struct LayerPlan: Sendable, Equatable {
    /// The layer as the cfg describes it.
    public let spec: LayerSpec
    /// The shape this layer reads (the previous layer's output, or the network input).
    public let inputShape: TensorShape
    /// The shape this layer writes.
    public let outputShape: TensorShape
    /// Floating-point operations of one forward pass (multiply and add count 2), Darknet's way:
    /// only convolutions count.
    public let flops: Int
    /// Layers whose outputs this layer reads; `-1` is the network input.
    public let sources: [Int]
    /// Values of the im2col workspace this layer needs (0 when it needs none).
    public let workspaceCount: Int
    /// Learned values (weights and biases after batch-norm folding) this layer holds.
    public let parameterCount: Int
    /// For a convolution, its planned algorithm (a `[crnn]`: one per sub-layer).
    package let convolutions: [PlannedConvolution]
    /// For convolutions, how they are computed.
    public var algorithm: ConvolutionAlgorithm? {
        if case .convolutional = spec.kind { convolutions.first?.algorithm } else { nil }
    }
    /// The number format the layer computes in: its convolution algorithm's, else float32.
    public var arithmetic: Arithmetic { algorithm?.arithmetic ?? .float32 }
    /// For a convolution, why it computes in `arithmetic` (the `ArithmeticChoice` rule that
    /// chose it), as `info --plan` prints it; nil for other layers.
    public var arithmeticReason: String? {
        if case .convolutional = spec.kind { convolutions.first?.reason } else { nil }
    }
    /// Floats the parameters take in memory, laid out for the algorithm (Winograd's transformed
    /// 6x6 kernels take 4x the 3x3 ones).
    public let residentParameterCount: Int
    /// Scratch floats each thread needs while this layer runs (bands, transforms).
    public let threadScratchCount: Int
    /// Floats of state the layer carries from one forward pass to the next (`[rnn]`, `[gru]`);
    /// every session holds its own, zero until its first pass.
    public let stateCount: Int
    /// For an integer convolution (`.int8Im2col`, `.int8Direct`, `.int16Direct`), its input
    /// quantization and integer kernels.
    package var int8: Int8LayerQuantization? {
        (convolutions.first?.method as? any IntegerConvolutionMethod)?.quantization
    }

    public var index: Int { spec.index }

    /// This layer's line of Darknet's layer summary after the index: type, filters, size/stride,
    /// input -> output, BFLOPs (as `darknet` prints it when it loads a network).
    public var summary: String { spec.kind.layer.summary(self) }

    /// `input   ->  output`, each `W x H x C` as Darknet prints them.
    var shapes: String { "\(Self.shape(inputShape))   ->  \(Self.shape(outputShape))" }

    private static func shape(_ s: TensorShape) -> String {
        String(format: "%4d x%4d x%4d", s.width, s.height, s.channels)
    }
}

extension LayerPlan: CustomStringConvertible {
    /// Its index, Darknet's summary line and the convolution algorithm chosen, as
    /// `LayerPlan(4: conv     64  3 x 3 / 1   104 x 104 x  32   ->   104 x 104 x  64  0.399 BFLOPs, winograd bands)`.
    public var description: String {
        "LayerPlan(\(index): \(summary)\(algorithm.map { ", \($0)" } ?? ""))"
    }
}

/// Limits checked while planning.
public struct PlanOptions: Sendable, Equatable {
    /// Refuse networks whose weights, activations, workspace and one thread's scratch need more
    /// bytes than this (each further thread of a session adds `threadScratchCount` floats).
    public var memoryLimit: Int
    /// Which convolution paths may be used.
    public var convolutionStrategy: ConvolutionStrategy
    /// The arithmetic of the convolutions: `.float32` (the default, Darknet's results) or
    /// `.int8` with a calibration (see `Precision`). int8 weights take about a quarter of the
    /// float ones' memory (`NetworkPlan.residentParameterCount`).
    public var precision: Precision
    /// The processor the plan is for: its kernels, its BLAS and its int8 rules. Default: the
    /// running machine (`CPUFeatures.current`). A network loads only a plan the running CPU
    /// executes.
    public var cpu: CPUFeatures
    /// The integer kernel set every int8 layer runs (tests pin `.portable` to compare); nil: the
    /// fastest `cpu` runs.
    package var integerKernels: IntegerKernels?
    /// The vector kernel set every layer runs (tests pin each set `cpu` runs); nil: the widest.
    package var vectorKernels: VectorKernels?
    /// The kernel set every layer of its arithmetic (bfloat16 or float16) runs (tests pin
    /// `.portable` or `.portableFloat16` to compare); nil: the CPU's (`CPUFeatures.reducedKernels(for:)`).
    package var reducedKernels: ReducedKernels?

    /// Thresholds of the planner's rules (tests lower them to reach the F(2x2, 3x3) path and the
    /// 36 GEMMs on small layers).
    package var tuning = ConvolutionTuning()
    /// Largest F(4x4, 3x3) weights (bytes) a small-output layer takes `.winogradFewTiles` for;
    /// above, `.winogradF23`.
    package var fewTileWeightLimit: Int {
        get { tuning.fewTileWeightLimit }
        set { tuning.fewTileWeightLimit = newValue }
    }
    /// Largest F(4x4, 3x3) weights (bytes) a large-output layer takes `.winogradBands` for;
    /// above, `.winograd`. Setting it sets both of the tuning's band limits (that of a core
    /// whose L2 holds a band of the layer too).
    package var bandWeightLimit: Int {
        get { tuning.bandWeightLimit }
        set { (tuning.bandWeightLimit, tuning.largeBandWeightLimit) = (newValue, newValue) }
    }

    /// Unknown and repeated cfg keys are errors (`CfgError.Reason.rejectedKey`) instead of
    /// diagnostics: `Network`'s initialisers check it before planning (see `NetworkSpec.checkKeys`).
    public var rejectsUnknownKeys: Bool

    /// Default: 4 GiB, fastest paths, unknown keys reported as diagnostics, the running CPU.
    public init(memoryLimit: Int = 4 << 30, convolutionStrategy: ConvolutionStrategy = .fastest,
                rejectsUnknownKeys: Bool = false, precision: Precision = .float32, cpu: CPUFeatures = .current) {
        self.memoryLimit = memoryLimit
        self.cpu = cpu
        self.convolutionStrategy = convolutionStrategy
        self.precision = precision
        self.rejectsUnknownKeys = rejectsUnknownKeys
    }
}

/// The shapes, costs and data flow of a whole network: everything known before any
/// memory is allocated or any weight is read.
public struct NetworkPlan: Sendable, Equatable {
    /// The cfg file the plan was made from, for messages.
    public let file: String
    /// The input the network expects.
    public let inputShape: TensorShape
    /// Every layer, in order.
    public let layers: [LayerPlan]
    /// Values of the shared im2col workspace (the largest any layer needs).
    public let workspaceCount: Int
    /// Scratch floats each thread needs for the Winograd transforms (0 without Winograd layers).
    public let threadScratchCount: Int
    /// Number of learned parameters (floats) the weights file must supply after folding.
    public let parameterCount: Int
    /// `[maxpool]` layers the sliding-window convolution right before them can compute in the same
    /// pass (see `SlidingWindowConvolution.canPool`): the pool is that convolution's only reader.
    /// A session fuses them unless it keeps the convolution's output.
    package let fusibleMaxpools: Set<Int>
    /// `[shortcut]` layers that the Winograd convolution right before them can add to its output
    /// right after its output transform, while it is in cache: one source of the same shape,
    /// weights 1 and a linear activation (so the sum is the separate pass's, `activation(convolution)
    /// + source`), and the shortcut is that convolution's only reader. A session fuses them unless it keeps the convolution's output;
    /// the shortcut's output is then the convolution's buffer (`ArenaLayout.fusedShortcuts`).
    package let fusibleShortcuts: Set<Int>
    /// int8 convolutions whose only reader is the int8 convolution right after them, or a
    /// `[maxpool]` in `int8CodePools`: a session that keeps neither such an output nor that of
    /// the pool lets the convolution write it as 8-bit codes in the (next) int8 convolution's
    /// input quantization, which that reader takes as they are (the same codes it would have
    /// quantized the float output to, without the float tensor in between).
    package let int8CodeOutputs: Set<Int>
    /// `[maxpool]` layers between two int8 convolutions, each the other's only neighbour: they
    /// pool the first one's 8-bit codes into codes for the second (exact: quantization is
    /// monotonic), where the session keeps neither output.
    package let int8CodePools: Set<Int>
    /// The arithmetic the convolutions run in (`PlanOptions.precision`, with its calibration).
    public let precision: Precision
    /// The processor the plan is for (`PlanOptions.cpu`).
    public let cpu: CPUFeatures
    /// The vector kernels every layer runs: the widest `cpu` executes, or the set the options pin.
    package let vectorKernels: VectorKernels
    /// Floats of state all layers carry between passes (see `LayerPlan.stateCount`).
    public let stateCount: Int
    /// Where each layer's state starts in a session's state buffer.
    package let stateOffsets: [Int]
    /// Floats the parameters take in memory, laid out for each layer's algorithm.
    public var residentParameterCount: Int { layers.reduce(0) { $0 &+ $1.residentParameterCount } }

    /// The detection heads (`[yolo]`, `[region]`, `[detection]`, `[Gaussian_yolo]`), in layer order.
    public var detectionHeads: [LayerPlan] { layers.filter { $0.spec.kind.isDetectionHead } }

    /// Total floating-point operations of one forward pass.
    public var flops: Int { layers.reduce(0) { $0 + $1.flops } }

    /// Convolutions the plan runs in integers (`.int8` precision), those in 16-bit integers
    /// (`.int16Direct`) included, and of those, the 16-bit ones.
    package var integerConvolutions: (all: Int, sixteenBit: Int) {
        (layers.filter { $0.int8 != nil }.count, layers.filter { $0.algorithm == .int16Direct }.count)
    }

    /// Plans `spec`, validating every connection. An error names the cfg file and the line of
    /// the layer's section, and carries the cfg's diagnostics.
    public init(spec: NetworkSpec, options: PlanOptions = PlanOptions()) throws(PlanError) {
        do {
            try self.init(unlocated: spec, options: options)
        } catch {
            throw error.located(in: spec)
        }
    }

    private init(unlocated spec: NetworkSpec, options: PlanOptions) throws(PlanError) {
        let input = TensorShape(channels: spec.net.channels, height: spec.net.height, width: spec.net.width)
        let networkOverflow = PlanError(layer: -1, section: "net", reason: .sizeOverflow)
        guard Self.fitsInt32(input) else { throw networkOverflow }
        if let calibration = options.precision.calibration, calibration.inputShape != input {
            throw PlanError(layer: -1, section: "net", reason: .calibrationMismatch(
                "calibrated for a \(calibration.inputShape) input, the network takes \(input)"))
        }
        var layers: [LayerPlan] = []
        let integerLayers = IntegerLayers(spec, precision: options.precision, cpu: options.cpu,
                                          pinned: options.integerKernels)
        for layer in spec.layers {
            let previous = layer.index == 0 ? input : layers[layer.index - 1].outputShape
            let int8Input = try integerLayers.quantization(of: layer, reading: previous)
            let context = LayerPlanningContext(index: layer.index, section: layer.kind.sectionName, input: previous,
                                               planned: layers, options: options, int8Input: int8Input)
            let planned = try layer.kind.layer.plan(context)
            guard Self.fitsInt32(planned.output) else { throw context.fail(.sizeOverflow) }
            layers.append(LayerPlan(spec: layer, inputShape: previous, outputShape: planned.output, flops: planned.flops,
                                    sources: planned.sources ?? [layer.index - 1], workspaceCount: planned.workspace,
                                    parameterCount: planned.parameters, convolutions: planned.convolutions,
                                    residentParameterCount: planned.resident ?? planned.parameters,
                                    threadScratchCount: planned.threadScratch, stateCount: planned.state))
        }
        self.file = spec.file
        self.inputShape = input
        self.layers = layers
        self.workspaceCount = layers.map(\.workspaceCount).max() ?? 0
        self.parameterCount = layers.reduce(0) { $0 &+ $1.parameterCount }
        let readers = Self.readerCounts(layers)
        self.fusibleMaxpools = Self.fusibleMaxpools(layers, readers: readers)
        self.fusibleShortcuts = Self.fusibleShortcuts(layers, readers: readers)
        let int8CodePools = Self.int8CodePools(layers, readers: readers)
        self.int8CodePools = int8CodePools
        self.int8CodeOutputs = Self.int8CodeOutputs(layers, readers: readers).union(int8CodePools.map { $0 - 1 })
        self.threadScratchCount = layers.map(\.threadScratchCount).max() ?? 0
        var stateOffsets: [Int] = []
        var state = 0
        for layer in layers {
            stateOffsets.append(state)
            state &+= layer.stateCount
        }
        self.stateOffsets = stateOffsets
        self.precision = options.precision
        self.cpu = options.cpu
        self.vectorKernels = options.vectorKernels ?? options.cpu.vectorKernels
        self.stateCount = state

        // Summed again with checks: a total that wrapped around could slip under the limit.
        var floats = workspaceCount
        for count in [input.count, threadScratchCount, stateCount] + layers.flatMap({ [$0.outputShape.count, $0.residentParameterCount] }) {
            let (sum, overflow) = floats.addingReportingOverflow(count)
            guard !overflow else { throw networkOverflow }
            floats = sum
        }
        let bytes = floats.multipliedReportingOverflow(by: MemoryLayout<Float>.size)
        guard !bytes.overflow else { throw networkOverflow }
        guard bytes.partialValue <= options.memoryLimit else {
            throw PlanError(layer: -1, section: "net", reason: .memoryLimitExceeded(bytes: bytes.partialValue, limit: options.memoryLimit))
        }
    }

    /// How many layers read each layer's output.
    private static func readerCounts(_ layers: [LayerPlan]) -> [Int] {
        var readers = [Int](repeating: 0, count: layers.count)
        for layer in layers { for source in layer.sources where source >= 0 { readers[source] += 1 } }
        return readers
    }

    private static func fusibleMaxpools(_ layers: [LayerPlan], readers: [Int]) -> Set<Int> {
        Set(layers.indices.filter { index in
            guard index > 0, case .maxpool(let pool) = layers[index].spec.kind,
                  case .convolutional(let conv) = layers[index - 1].spec.kind,
                  layers[index - 1].algorithm == .slidingWindow, readers[index - 1] == 1,
                  layers[index].sources == [index - 1] else { return false }
            return SlidingWindowConvolution.canPool(pool, after: conv, output: layers[index - 1].outputShape,
                                                    pooled: layers[index].outputShape)
        })
    }

    private static func fusibleShortcuts(_ layers: [LayerPlan], readers: [Int]) -> Set<Int> {
        Set(layers.indices.filter { index in
            guard index > 0, case .shortcut(let shortcut) = layers[index].spec.kind, shortcut.from.count == 1,
                  shortcut.alpha == 1, shortcut.beta == 1, shortcut.activation == .linear,
                  layers[index - 1].algorithm?.isWinograd == true, readers[index - 1] == 1 else { return false }
            let source = shortcut.from[0]
            return source != index - 1 && layers[index].sources == [index - 1, source]
                && layers[source].outputShape == layers[index].inputShape
        })
    }

    /// Whether layer `reader` reads layer `writer` alone, and is `writer`'s only reader.
    private static func onlyReader(_ reader: Int, of writer: Int, _ layers: [LayerPlan], readers: [Int]) -> Bool {
        readers[writer] == 1 && layers[reader].sources == [writer]
    }

    /// Whether layer `index` is an 8-bit int8 convolution (not one reading 16-bit activations).
    private static func eightBit(_ index: Int, _ layers: [LayerPlan]) -> Bool { layers[index].int8?.isEightBit == true }

    private static func int8CodeOutputs(_ layers: [LayerPlan], readers: [Int]) -> Set<Int> {
        Set(layers.indices.dropLast().filter { index in
            eightBit(index, layers) && eightBit(index + 1, layers) && onlyReader(index + 1, of: index, layers, readers: readers)
        })
    }

    private static func int8CodePools(_ layers: [LayerPlan], readers: [Int]) -> Set<Int> {
        Set(layers.indices.dropFirst().dropLast().filter { index in
            guard case .maxpool = layers[index].spec.kind else { return false }
            return eightBit(index - 1, layers) && eightBit(index + 1, layers)
                && onlyReader(index, of: index - 1, layers, readers: readers)
                && onlyReader(index + 1, of: index, layers, readers: readers)
        })
    }

    /// Whether `channels * height * width` is below 2^31 (tensor sizes and BLAS dimensions are
    /// 32-bit in Darknet and in the kernels).
    static func fitsInt32(_ shape: TensorShape) -> Bool {
        let area = shape.height.multipliedReportingOverflow(by: shape.width)
        let total = area.partialValue.multipliedReportingOverflow(by: shape.channels)
        return !area.overflow && !total.overflow && total.partialValue < Int(Int32.max)
    }
}

extension NetworkPlan: CustomStringConvertible {
    /// A one-line summary, as `NetworkPlan(yolov3-tiny.cfg: 24 layers, input 416 x 416 x 3,
    /// 5.565 BFLOPs, float32)`; `layers` has each layer's plan.
    public var description: String { "NetworkPlan(\(summary))" }

    /// The file, layer count, input, BFLOPs (the sum of Darknet's per-layer figures) and precision.
    package var summary: String {
        "\(file): \(layers.count) layers, input \(inputShape), "
            + String(format: "%.3f BFLOPs", Double(flops) / 1e9) + ", \(precision)"
    }
}
