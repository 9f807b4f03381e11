/// One Darknet section type, and everything the library does with it: read its keys, plan it,
/// read its parameters, run it. Each type lives in one file of `Layers/`; `LayerRegistry` maps
/// section names to types and `LayerKind` holds one as a typed value.
///
/// A layer without parameters conforms to `WeightlessLayer` and is its own forward step.
protocol Layer: Sendable {
    /// The section names that mean this layer, the canonical one first (`convolutional`, `conv`).
    static var sectionNames: [String] { get }
    /// Reads the section's keys (`index` is the layer's 0-based index, for relative sources).
    /// - Throws: `CfgError` naming the key and its line.
    static func read(_ reader: inout SectionReader, index: Int) throws(CfgError) -> Self
    /// Whether only AlexeyAB's fork computes this layer as configured (`NetworkSpec.dialect`).
    var needsAlexeyAB: Bool { get }
    /// The output shape, costs and memory of this layer given what comes before it.
    /// - Throws: `PlanError` (via `context.fail`) if the layer does not fit its input.
    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning
    /// This layer's line of Darknet's layer table, after the index (`conv     16  3 x 3 / 1 ...`).
    func summary(_ layer: LayerPlan) -> String
    /// The float arrays the weights file stores for this layer, in file order (empty if none).
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)]
    /// The forward step, its parameters read from `reader` (positioned at this layer's first byte).
    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep
}

/// A layer's forward computation, built once per network with its parameters laid out for it.
protocol LayerStep: Sendable {
    /// Computes `layer`'s output from the buffers of `pass`.
    func run(_ layer: LayerPlan, in pass: ForwardPass)
    /// The learned arrays this step holds, in the layout it computes with (tests compare them).
    var parameterArrays: [[Float]] { get }
}

extension LayerStep {
    var parameterArrays: [[Float]] { [] }
}

/// A layer with no learned parameters: its forward step is the layer itself.
protocol WeightlessLayer: Layer, LayerStep {}

extension WeightlessLayer {
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] { [] }
    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep { self }
}

extension Layer {
    var needsAlexeyAB: Bool { false }
}

/// What a layer's plan sees: its input, the layers before it and the options.
struct LayerPlanningContext {
    /// The layer's 0-based index.
    let index: Int
    /// The cfg section name, for errors.
    let section: String
    /// The previous layer's output (or the network input).
    let input: TensorShape
    /// The layers planned so far (all of them earlier than this one).
    let planned: [LayerPlan]
    let options: PlanOptions
    /// For a convolution an int8 network runs in int8, its input quantization.
    var int8Input: Int8LayerQuantization? = nil

    /// The output shape of earlier layer `index`.
    func outputShape(of index: Int) -> TensorShape { planned[index].outputShape }

    /// A plan error for this layer.
    func fail(_ reason: PlanError.Reason) -> PlanError {
        PlanError(layer: index, section: section, reason: reason)
    }

    /// The product of `factors`, or a `.sizeOverflow` error.
    func product(_ factors: Int...) throws(PlanError) -> Int {
        var result = 1
        for factor in factors {
            let (value, overflow) = result.multipliedReportingOverflow(by: factor)
            guard !overflow else { throw fail(.sizeOverflow) }
            result = value
        }
        return result
    }
}

/// What planning a layer decides, besides its input (`LayerPlan` adds the spec and input shape).
struct LayerPlanning {
    var output: TensorShape
    /// Floating-point operations, Darknet's way (convolutions only).
    var flops = 0
    /// Layers read, `-1` the network input; `nil` means the previous layer only.
    var sources: [Int]?
    /// Floats of the shared workspace the layer needs.
    var workspace = 0
    /// Floats of scratch each thread needs.
    var threadScratch = 0
    /// Floats of state the layer carries from one forward pass to the next (recurrent layers).
    var state = 0
    /// Learned floats the weights file supplies (after folding).
    var parameters = 0
    /// Floats the parameters take in memory, if their layout differs from `parameters`.
    var resident: Int?
    /// For a convolution, its planned algorithm (a `[crnn]`: one per sub-layer).
    var convolutions: [PlannedConvolution] = []
}

/// What every layer's parameter reading shares.
struct LoadingContext {
    /// Which Darknet's batch-norm arithmetic applies.
    let dialect: DarknetDialect
    /// The header says `[connected]` weights are stored `inputs x outputs`.
    let transposed: Bool
}
