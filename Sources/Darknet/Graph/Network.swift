import CDarknetKernels
import Foundation

/// A Darknet network ready to run: its typed description, its plan and its learned
/// parameters (batch norm folded). Immutable and `Sendable`: any number of
/// `InferenceSession`s on any threads can share one `Network`.
public final class Network: Sendable {
    /// The cfg as typed layer descriptions.
    public let spec: NetworkSpec
    /// Shapes, costs and data flow.
    public let plan: NetworkPlan
    /// The weights file's version header.
    public let header: WeightsHeader
    /// Learned parameters of each layer that has any, by layer index (`nil` for the others).
    let convolutions: [ConvolutionParameters?]

    /// Loads a network from a `.cfg` file and a `.weights` file.
    ///
    /// Every error names its file; a `PlanError` or `WeightsError` also lists the cfg's
    /// diagnostics as notes (`options.rejectsUnknownKeys` makes them `CfgError`s instead).
    /// - Throws: `CfgError`, `PlanError`, `WeightsError`, or `FileError` if a file cannot be read.
    public convenience init(cfg: URL, weights: URL, options: PlanOptions = PlanOptions()) throws {
        BLAS.beginLoading()
        let spec = try NetworkSpec.parse(contentsOf: cfg)
        try spec.checkKeys(options)
        // Planned before the weights are read: a network over the memory limit is refused
        // without reading (possibly gigabytes of) its weights file.
        let plan = try NetworkPlan(spec: spec, options: options)
        try self.init(spec: spec, plan: plan, weightsFile: weights)
    }

    /// Loads a `.weights` file for a parsed cfg (read a layer at a time, never held whole).
    public convenience init(spec: NetworkSpec, weightsFile url: URL, options: PlanOptions = PlanOptions()) throws {
        try spec.checkKeys(options)
        let plan = try NetworkPlan(spec: spec, options: options)
        try self.init(spec: spec, plan: plan, weightsFile: url)
    }

    /// Loads a `.weights` file as `init(spec:weightsFile:options:)` does, its Winograd layers'
    /// weights read `floatsPerRun` floats at a time (whole blocks, at least one) instead of about
    /// 1 MB: tests and the fuzzer shrink the runs so that small networks cross many of them.
    @_spi(Testing)
    public convenience init(spec: NetworkSpec, weightsFile url: URL, options: PlanOptions = PlanOptions(),
                            floatsPerRun: Int) throws {
        precondition(floatsPerRun > 0, "a run holds at least one float")
        try self.init(spec: spec, plan: try NetworkPlan(spec: spec, options: options), weightsFile: url,
                      floatsPerRun: floatsPerRun)
    }

    /// Loads weights already in memory for a parsed cfg.
    public convenience init(spec: NetworkSpec, weights: Data, weightsFile: String = "<memory>",
                            options: PlanOptions = PlanOptions()) throws {
        try spec.checkKeys(options)
        try self.init(spec: spec, plan: try NetworkPlan(spec: spec, options: options), weights: weights, weightsFile: weightsFile)
    }

    /// Loads weights already in memory for a parsed cfg.
    public convenience init(spec: NetworkSpec, weights: [UInt8], weightsFile: String = "<memory>",
                            options: PlanOptions = PlanOptions()) throws {
        try spec.checkKeys(options)
        try self.init(spec: spec, plan: try NetworkPlan(spec: spec, options: options), weights: weights, weightsFile: weightsFile)
    }

    private convenience init(spec: NetworkSpec, plan: NetworkPlan, weights: some ContiguousBytes, weightsFile: String) throws {
        BLAS.beginLoading()  // opened while the weights are read
        let (header, convolutions) = try weights.withUnsafeBytes { bytes in
            var reader = WeightsReader(file: weightsFile, bytes: bytes)
            return try Self.readParameters(&reader, spec: spec, plan: plan)
        }
        try self.init(spec: spec, plan: plan, header: header, convolutions: convolutions)
    }

    private convenience init(spec: NetworkSpec, plan: NetworkPlan, weightsFile url: URL,
                             floatsPerRun: Int = UncheckedFloats.defaultFloatsPerRun) throws {
        BLAS.beginLoading()  // opened while the weights are read
        var reader = WeightsReader(file: try WeightsFile(opening: url.path))
        reader.floatsPerRun = floatsPerRun
        let (header, convolutions) = try Self.readParameters(&reader, spec: spec, plan: plan)
        try self.init(spec: spec, plan: plan, header: header, convolutions: convolutions)
    }

    private init(spec: NetworkSpec, plan: NetworkPlan, header: WeightsHeader,
                 convolutions: [ConvolutionParameters?]) throws {
        try BLAS.ensureLoaded()
        self.spec = spec
        self.plan = plan
        self.header = header
        self.convolutions = convolutions
    }

    /// `readParameters(_:plan:dialect:)`, its error carrying `spec`'s diagnostics as notes.
    private static func readParameters(_ reader: inout WeightsReader, spec: NetworkSpec, plan: NetworkPlan)
        throws(WeightsError) -> (WeightsHeader, [ConvolutionParameters?]) {
        do {
            return try readParameters(&reader, plan: plan, dialect: spec.dialect)
        } catch {
            var noted = error
            noted.notes = spec.diagnostics
            throw noted
        }
    }

    /// Reads the header, checks the file's size against the plan (`WeightsReader.checkSize`),
    /// then reads every layer's parameters, in cfg order, to the last byte.
    static func readParameters(_ reader: inout WeightsReader, plan: NetworkPlan, dialect: DarknetDialect)
        throws(WeightsError) -> (WeightsHeader, [ConvolutionParameters?]) {
        let header = try reader.readHeader()
        try reader.checkSize(for: plan.layers)
        var convolutions: [ConvolutionParameters?] = []
        for layer in plan.layers {
            reader.layer = layer.index
            if case .convolutional(let conv) = layer.spec.kind {
                convolutions.append(try ConvolutionParameters(reading: &reader, spec: conv,
                                                              inputChannels: layer.inputShape.channels, dialect: dialect,
                                                              algorithm: layer.algorithm ?? .im2col))
            } else {
                convolutions.append(try readDenseParameters(&reader, layer: layer, transposed: header.transposed))
            }
        }
        try reader.finish()
        return (header, convolutions)
    }

    /// A network with seeded random parameters, for benchmarking any cfg without its weights.
    public init(spec: NetworkSpec, randomSeed seed: UInt64, options: PlanOptions = PlanOptions()) throws {
        try spec.checkKeys(options)
        BLAS.beginLoading()  // opened while the parameters are drawn
        let plan = try NetworkPlan(spec: spec, options: options)
        var generator = SplitMix64(seed: seed)
        convolutions = plan.layers.map { layer in
            guard case .convolutional(let conv) = layer.spec.kind else {
                return Self.randomDenseParameters(layer: layer, generator: &generator)
            }
            let kernelArea = layer.inputShape.channels / conv.groups * conv.size * conv.size
            let bound = (3 / Float(kernelArea)).squareRoot()
            let weights = (0..<(conv.filters * kernelArea)).map { _ in generator.nextFloat(in: -bound...bound) }
            let biases = (0..<conv.filters).map { _ in generator.nextFloat(in: -0.1...0.1) }
            return ConvolutionParameters(weights: weights, biases: biases)
                .prepared(for: layer.algorithm ?? .im2col, filters: conv.filters, inputChannels: layer.inputShape.channels)
        }
        try BLAS.ensureLoaded()
        self.spec = spec
        self.plan = plan
        self.header = WeightsHeader(major: 0, minor: 2, revision: 0, seen: 0, byteCount: 20)
    }

    /// The `[net]` input shape (planar CHW).
    public var inputShape: TensorShape { plan.inputShape }
}

/// A small, fast, seedable generator (SplitMix64) so random weights are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextFloat(in range: ClosedRange<Float>) -> Float {
        let unit = Float(next() >> 40) / Float(1 << 24)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
}
