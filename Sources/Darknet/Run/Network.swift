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
    /// The weights' `WeightsFingerprint` (nil for random parameters), which an int8
    /// calibration made with this network records.
    public let weightsFingerprint: WeightsFingerprint?
    /// Each layer's forward step with its parameters, by layer index.
    let steps: [any LayerStep]

    /// Loads a network from a `.cfg` file and a `.weights` file.
    ///
    /// Every error names its file; a `PlanError` or `WeightsError` also lists the cfg's
    /// diagnostics as notes (`options.rejectsUnknownKeys` makes them `CfgError`s instead).
    /// - Throws: `CfgError`, `PlanError`, `WeightsError`, or `FileError` if a file cannot be read.
    public convenience init(cfg: URL, weights: URL, options: PlanOptions = PlanOptions()) throws {
        // Planned before the weights are read: a network over the memory limit is refused
        // without reading (possibly gigabytes of) its weights file.
        let (spec, plan) = try Self.planned(try NetworkSpec.parse(contentsOf: cfg), options: options)
        try self.init(spec: spec, plan: plan, weightsFile: weights)
    }

    /// Loads a `.weights` file for a parsed cfg (read a layer at a time, never held whole).
    public convenience init(spec: NetworkSpec, weights url: URL, options: PlanOptions = PlanOptions()) throws {
        let (spec, plan) = try Self.planned(spec, options: options)
        try self.init(spec: spec, plan: plan, weightsFile: url)
    }

    /// Loads a `.weights` file as `init(spec:weights:options:)` does, its Winograd layers'
    /// weights read `floatsPerRun` floats at a time (whole blocks, at least one) instead of about
    /// 1 MB: tests and the fuzzer shrink the runs so that small networks cross many of them.
    @_spi(Testing)
    public convenience init(spec: NetworkSpec, weights url: URL, options: PlanOptions = PlanOptions(),
                            floatsPerRun: Int) throws {
        precondition(floatsPerRun > 0, "a run holds at least one float")
        let (spec, plan) = try Self.planned(spec, options: options)
        try self.init(spec: spec, plan: plan, weightsFile: url, floatsPerRun: floatsPerRun)
    }

    /// Loads weights already in memory for a parsed cfg; `weightsName` names them in errors.
    public convenience init(spec: NetworkSpec, weights: Data, weightsName: String = "<memory>",
                            options: PlanOptions = PlanOptions()) throws {
        let (spec, plan) = try Self.planned(spec, options: options)
        try self.init(spec: spec, plan: plan, weights: weights, weightsFile: weightsName)
    }

    /// Loads weights already in memory for a parsed cfg; `weightsName` names them in errors.
    public convenience init(spec: NetworkSpec, weights: [UInt8], weightsName: String = "<memory>",
                            options: PlanOptions = PlanOptions()) throws {
        let (spec, plan) = try Self.planned(spec, options: options)
        try self.init(spec: spec, plan: plan, weights: weights, weightsFile: weightsName)
    }

    /// `init(spec:weights:options:)`: `weightsFile` was a URL here and a display name in the
    /// in-memory initialisers.
    @available(*, deprecated, renamed: "init(spec:weights:options:)")
    public convenience init(spec: NetworkSpec, weightsFile url: URL, options: PlanOptions = PlanOptions()) throws {
        try self.init(spec: spec, weights: url, options: options)
    }

    /// `init(spec:weights:weightsName:options:)`.
    @available(*, deprecated, renamed: "init(spec:weights:weightsName:options:)")
    public convenience init(spec: NetworkSpec, weights: Data, weightsFile: String, options: PlanOptions = PlanOptions()) throws {
        try self.init(spec: spec, weights: weights, weightsName: weightsFile, options: options)
    }

    /// `init(spec:weights:weightsName:options:)`.
    @available(*, deprecated, renamed: "init(spec:weights:weightsName:options:)")
    public convenience init(spec: NetworkSpec, weights: [UInt8], weightsFile: String, options: PlanOptions = PlanOptions()) throws {
        try self.init(spec: spec, weights: weights, weightsName: weightsFile, options: options)
    }

    /// `spec` checked against `options` (unknown keys), its class trees loaded
    /// (`NetworkSpec.loadingClassTrees()`), and planned: what every initialiser does before a
    /// weight is read.
    private static func planned(_ spec: NetworkSpec, options: PlanOptions) throws -> (NetworkSpec, NetworkPlan) {
        try spec.checkKeys(options)
        let spec = try spec.loadingClassTrees()
        let plan = try NetworkPlan(spec: spec, options: options)
        try checkRunnable(plan, spec: spec)
        return (spec, plan)
    }

    private convenience init(spec: NetworkSpec, plan: NetworkPlan, weights: some ContiguousBytes, weightsFile: String) throws {
        let (header, steps, fingerprint) = try weights.withUnsafeBytes { bytes in
            var reader = WeightsReader(file: weightsFile, bytes: bytes)
            let fingerprint = try Self.checkCalibration(of: plan, against: reader)
            let (header, steps) = try Self.readParameters(&reader, spec: spec, plan: plan)
            return (header, steps, fingerprint)
        }
        try self.init(spec: spec, plan: plan, header: header, steps: steps, fingerprint: fingerprint)
    }

    private convenience init(spec: NetworkSpec, plan: NetworkPlan, weightsFile url: URL,
                             floatsPerRun: Int = UncheckedFloats.defaultFloatsPerRun) throws {
        var reader = WeightsReader(file: try WeightsFile(opening: url.path))
        reader.floatsPerRun = floatsPerRun
        let fingerprint = try Self.checkCalibration(of: plan, against: reader)
        let (header, steps) = try Self.readParameters(&reader, spec: spec, plan: plan)
        try self.init(spec: spec, plan: plan, header: header, steps: steps, fingerprint: fingerprint)
    }

    private init(spec: NetworkSpec, plan: NetworkPlan, header: WeightsHeader, steps: [any LayerStep],
                 fingerprint: WeightsFingerprint) throws {
        try BLAS.ensureLoaded()
        self.spec = spec
        self.plan = plan
        self.header = header
        self.steps = steps
        weightsFingerprint = fingerprint
    }

    /// Fails unless `plan` was made for this architecture and the running CPU executes every
    /// kernel it picked (a plan made for another processor, `PlanOptions.cpu`, is for inspection),
    /// and the BLAS is usable; before any weight is read.
    /// - Throws: `PlanError.Reason.cpuMismatch`, `BLAS.Unavailable`.
    private static func checkRunnable(_ plan: NetworkPlan, spec: NetworkSpec) throws {
        try BLAS.ensureLoaded()
        let running = CPUFeatures.current
        let runs = plan.cpu.architecture == running.architecture && running.runs(plan.vectorKernels)
            && plan.layers.allSatisfy { $0.int8.map { running.runs($0.variant) } ?? true }
            && plan.layers.allSatisfy { $0.reducedKernels?.runs(on: running.architecture, running.extensions) ?? true }
        guard runs else {
            throw PlanError(layer: -1, section: "net", reason: .cpuMismatch(planned: plan.cpu.description,
                                                                            running: running.description)).located(in: spec)
        }
    }

    /// The fingerprint of the weights `reader` reads, after checking that `plan`'s int8
    /// calibration, if it records one, was made with these weights (before any is read).
    /// - Throws: `Int8CalibrationError.otherWeights`, or the `WeightsError` of a failed read.
    private static func checkCalibration(of plan: NetworkPlan, against reader: WeightsReader) throws -> WeightsFingerprint {
        let fingerprint = try reader.fingerprint()
        if let calibrated = plan.precision.calibration?.weights, calibrated != fingerprint {
            throw Int8CalibrationError.otherWeights(weightsFile: reader.file, calibrated: calibrated, loaded: fingerprint)
        }
        return fingerprint
    }

    /// `readParameters(_:plan:dialect:)`, its error carrying `spec`'s diagnostics as notes.
    private static func readParameters(_ reader: inout WeightsReader, spec: NetworkSpec, plan: NetworkPlan)
        throws(WeightsError) -> (WeightsHeader, [any LayerStep]) {
        do {
            return try readParameters(&reader, plan: plan, dialect: spec.dialect)
        } catch {
            var noted = error
            noted.notes = spec.diagnostics
            throw noted
        }
    }

    /// Reads the header, checks the file's size against the plan (`WeightsReader.checkSize`),
    /// then every layer's parameters, in cfg order, to the last byte, each into its forward step.
    static func readParameters(_ reader: inout WeightsReader, plan: NetworkPlan, dialect: DarknetDialect)
        throws(WeightsError) -> (WeightsHeader, [any LayerStep]) {
        let header = try reader.readHeader()
        try reader.checkSize(for: plan.layers)
        let context = LoadingContext(dialect: dialect, transposed: header.transposed)
        var steps: [any LayerStep] = []
        for layer in plan.layers {
            reader.layer = layer.index
            steps.append(try layer.spec.kind.layer.loadStep(layer, from: &reader, context: context))
        }
        try reader.finish()
        return (header, steps)
    }

    /// A network with seeded random parameters, for benchmarking any cfg without its weights.
    public init(spec: NetworkSpec, randomSeed seed: UInt64, options: PlanOptions = PlanOptions()) throws {
        let (spec, plan) = try Self.planned(spec, options: options)
        steps = try Self.randomSteps(plan, dialect: spec.dialect, seed: seed)
        try BLAS.ensureLoaded()
        self.spec = spec
        self.plan = plan
        self.header = WeightsHeader(major: 0, minor: 2, revision: 0, seen: 0, byteCount: 20)
        weightsFingerprint = nil
    }

    /// Each layer's step with the parameters `WeightsWriter` draws for it, read the way a file is.
    private static func randomSteps(_ plan: NetworkPlan, dialect: DarknetDialect, seed: UInt64) throws -> [any LayerStep] {
        var generator = SplitMix64(seed: seed)
        let context = LoadingContext(dialect: dialect, transposed: false)
        var steps: [any LayerStep] = []
        for layer in plan.layers {
            let bytes = WeightsWriter.randomArrays(for: layer, generator: &generator).flatMap(WeightsWriter.floatBytes)
            try bytes.withUnsafeBytes { bytes in
                var reader = WeightsReader(file: "<random>", bytes: bytes)
                reader.layer = layer.index
                steps.append(try layer.spec.kind.layer.loadStep(layer, from: &reader, context: context))
            }
        }
        return steps
    }

    /// The `[net]` input shape (planar CHW).
    public var inputShape: TensorShape { plan.inputShape }
}

extension Network: CustomStringConvertible {
    /// Its plan's summary, as `Network(yolov3-tiny.cfg: 24 layers, input 416 x 416 x 3,
    /// 5.565 BFLOPs, float32)`.
    public var description: String { "Network(\(plan.summary))" }
}
