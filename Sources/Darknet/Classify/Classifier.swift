import Foundation

/// One class and its probability, as `darknet classifier predict` lists them.
public struct Classification: Sendable, Equatable {
    /// Index into the network's outputs (and the names file).
    public let classIndex: Int
    /// The class name (from the names file), or the index as text without one.
    public let label: String
    /// The network's output for this class (a softmax probability for Darknet's classifiers).
    public let probability: Float

    /// A prediction from its parts.
    public init(classIndex: Int, label: String, probability: Float) {
        self.classIndex = classIndex
        self.label = label
        self.probability = probability
    }
}

extension Classification: CustomStringConvertible {
    /// `Labrador retriever: 41.23%` (the index as label without names).
    public var description: String { String(format: "%@: %.2f%%", label, probability * 100) }
}

/// What a `Classifier` reports, as `DetectionOptions` is for a `Detector`.
public struct ClassificationOptions: Sendable, Equatable {
    /// How many classes to report, the most probable first (`darknet classifier predict`'s
    /// `-top`, 5). At least 0.
    public var top: Int

    public init(top: Int = 5) {
        self.top = top
    }

    /// Throws for a negative `top`.
    public func validate() throws(ArgumentError) {
        try ArgumentError.require("ClassificationOptions.top", top, atLeast: 0)
    }
}

/// Why a classifier could not be built.
public enum ClassifierError: DarknetError, Equatable, Sendable {
    /// The names file lists fewer labels than the network has outputs.
    case tooFewLabels(file: String, labels: Int, outputs: Int)
    /// The image's channel count differs from the network input's.
    case channelMismatch(expected: Int, actual: Int)
    /// Every layer of `cfg`'s network is a `[cost]` layer: there is no output to read.
    case noOutputLayer(cfg: String)

    public var description: String {
        switch self {
        case .tooFewLabels(let file, let labels, let outputs):
            "\(file): \(labels) labels for a network with \(outputs) outputs"
        case .channelMismatch(let expected, let actual):
            "the image has \(actual) channels, the network expects \(expected)"
        case .noOutputLayer(let cfg):
            "\(cfg): the network has no layer other than [cost] to read predictions from"
        }
    }
}

/// Classifies images with a Darknet classifier (`darknet.cfg`, `darknet19.cfg`,
/// `extraction.cfg`, `tiny.cfg`, ...), giving what `darknet classifier predict` prints:
/// the image letterboxed to the network size, one forward pass, the `top` largest outputs of
/// the last layer that is not `[cost]`, largest first (ties: lower index first, Darknet's
/// `top_k`). With a class hierarchy (`[softmax] tree=`, darknet9000) the outputs are first
/// turned into path probabilities with only the leaves kept, as `predict` does
/// (`ClassTree.multiplyAlongPaths`).
///
/// `Classifier` is immutable and `Sendable`: call `classify` from any number of threads; each
/// call borrows an `InferenceSession` from a small pool (creating one when all are busy).
///
/// Threads: by default each call's forward pass runs on **one** thread, so concurrent calls
/// each use a core of their own; a single caller wanting all of them passes
/// `threads: AvailableCores.count`, as the command line does by default. Results are the same,
/// bit for bit, for any thread count.
///
/// ```swift
/// let classifier = try Classifier(cfg: cfgURL, weights: weightsURL, names: namesURL, threads: AvailableCores.count)
/// for c in try classifier.classify(image, top: 5) { print(c.label, c.probability) }
/// ```
public final class Classifier: LabelledModel, Sendable {
    /// The network, shared by every call.
    public let network: Network
    /// Class names, index for index (may be empty).
    public let labels: [String]
    /// Threads each `classify` call may use.
    public let threads: Int
    /// The layer whose output holds the class probabilities.
    public let outputLayer: Int
    /// How many sessions exist at once and how long idle ones are kept.
    public let sessionPolicy: SessionPolicy
    /// The network's class hierarchy (the last `[softmax] tree=`, Darknet's `net->hierarchy`).
    public let hierarchy: ClassTree?
    let runner: SessionRunner

    /// Wraps a loaded network. `labels` may be empty (indices are used) or cover every output;
    /// `threads` (default 1, `AvailableCores.count` for all the cores) is what one `classify`
    /// call may use.
    public init(network: Network, labels: [String] = [], labelsFile: String = "<labels>", threads: Int = 1,
                sessionPolicy: SessionPolicy = SessionPolicy()) throws {
        guard let output = Self.outputLayer(of: network.plan) else { throw ClassifierError.noOutputLayer(cfg: network.plan.file) }
        let outputs = output.outputShape.count
        guard labels.isEmpty || labels.count >= outputs else {
            throw ClassifierError.tooFewLabels(file: labelsFile, labels: labels.count, outputs: outputs)
        }
        self.network = network
        self.labels = labels
        try sessionPolicy.validate(threads: threads)
        self.threads = threads
        self.outputLayer = output.index
        self.sessionPolicy = sessionPolicy
        hierarchy = network.plan.layers.lazy.compactMap { layer -> ClassTree? in
            if case .softmax(let softmax) = layer.spec.kind { return softmax.tree }
            return nil
        }.last
        let outputLayer = output.index
        runner = SessionRunner(policy: sessionPolicy, name: "SwiftDarknet.Classifier") {
            InferenceSession(network: network, retaining: .layers([outputLayer]), threads: threads)
        }
    }

    /// The `top` most probable classes for `image`, most probable first.
    /// - Throws: `ArgumentError` for a negative `top`, `ClassifierError.channelMismatch`.
    public func classify(_ image: PlanarImage, top: Int = 5) throws -> [Classification] {
        try classify(image, options: ClassificationOptions(top: top))
    }

    /// The classes `options` asks for, most probable first (as `Detector.detect(_:options:)`).
    public func classify(_ image: PlanarImage, options: ClassificationOptions) throws -> [Classification] {
        try options.validate()
        let input = try prepare(image)
        return try runner.run { pooled in try self.classify(input, top: options.top, in: pooled) }
    }

    /// `classify(_:top:)` with the forward pass on the library's own threads; the calling task
    /// suspends meanwhile. A task cancelled before its pass starts throws `CancellationError`.
    public func classify(_ image: PlanarImage, top: Int = 5) async throws -> [Classification] {
        try await classify(image, options: ClassificationOptions(top: top))
    }

    /// `classify(_:options:)` with the forward pass on the library's own threads.
    public func classify(_ image: PlanarImage, options: ClassificationOptions) async throws -> [Classification] {
        try Task.checkCancellation()
        try options.validate()
        let input = try prepare(image)
        return try await runner.run { pooled in try self.classify(input, top: options.top, in: pooled) }
    }

    /// Classifies 8-bit pixels (a camera or decoder frame), letterboxed straight from the bytes
    /// into the network input (see `PixelBuffer.letterbox(into:width:height:channels:)`).
    /// - Parameters:
    ///   - pixels: the frame.
    ///   - region: only this part of the frame is classified (a crop).
    ///   - options: how many classes to report.
    /// - Returns: for RGB-family pixels, exactly what `classify(PlanarImage(pixels: pixels), options:)`
    ///   returns.
    /// - Throws: `ArgumentError` for a negative `top`, `PixelBufferError` for a region outside the
    ///   frame or colour pixels into a 1-channel network.
    public func classify(_ pixels: PixelBuffer, region: PixelRegion? = nil,
                         options: ClassificationOptions = ClassificationOptions()) throws -> [Classification] {
        try options.validate()
        let source = try region.map { region throws(PixelBufferError) in try pixels.cropped(to: region) } ?? pixels
        return try runner.run { pooled in try self.classify(source, top: options.top, in: pooled) }
    }

    /// `classify(_:region:options:)` with the forward pass on the library's own threads; the
    /// calling task suspends meanwhile.
    public func classify(_ pixels: PixelBuffer, region: PixelRegion? = nil,
                         options: ClassificationOptions = ClassificationOptions()) async throws -> [Classification] {
        try Task.checkCancellation()
        try options.validate()
        let source = try region.map { region throws(PixelBufferError) in try pixels.cropped(to: region) } ?? pixels
        return try await runner.run { pooled in try self.classify(source, top: options.top, in: pooled) }
    }

    /// Every class's score for an input already the network's size, taken as it is (no
    /// letterbox): a crop as `darknet classifier valid` makes (`PlanarImage.centreCropped`), say.
    /// With a class hierarchy, path probabilities with only the leaves kept, as `classify` ranks.
    /// - Throws: `InferenceError.inputSizeMismatch` when `input` is not the network input's size.
    public func scores(forInput input: PlanarImage) throws -> [Float] {
        try runner.run { pooled in
            try pooled.session.forward(input.pixels)
            return try self.scores(in: pooled)
        }
    }

    /// Sessions created and alive, and calls run so far.
    public var sessionStatistics: SessionStatistics { runner.statistics }

    private func prepare(_ image: PlanarImage) throws -> [Float] {
        let shape = network.inputShape
        guard image.channels == shape.channels else {
            throw ClassifierError.channelMismatch(expected: shape.channels, actual: image.channels)
        }
        return try image.letterboxed(width: shape.width, height: shape.height).image.pixels
    }

    private func classify(_ pixels: PixelBuffer, top: Int, in pooled: PooledSession) throws -> [Classification] {
        _ = try prepareInput(pixels, into: pooled.input)
        try pooled.session.forward(UnsafeBufferPointer(pooled.input))
        return try predictions(in: pooled, top: top)
    }

    /// Letterboxes `pixels` into `input`, the network input's size.
    func prepareInput(_ pixels: PixelBuffer, into input: UnsafeMutableBufferPointer<Float>) throws -> LetterboxGeometry {
        let shape = network.inputShape
        return try pixels.letterbox(into: input, width: shape.width, height: shape.height, channels: shape.channels)
    }

    private func classify(_ input: [Float], top: Int, in pooled: PooledSession) throws -> [Classification] {
        try pooled.session.forward(input)
        return try predictions(in: pooled, top: top)
    }

    /// The `top` classes of the forward pass `pooled` has just run.
    func predictions(in pooled: PooledSession, top: Int) throws -> [Classification] {
        try scores(in: pooled).withUnsafeBufferPointer { values in
            Self.topK(values, count: top).map { index in
                Classification(classIndex: index, label: index < labels.count ? labels[index] : String(index),
                               probability: values[index])
            }
        }
    }

    /// The output layer's values after the pass `pooled` has just run, through the hierarchy.
    private func scores(in pooled: PooledSession) throws -> [Float] {
        try pooled.session.withOutput(ofLayer: outputLayer) { output, _ in
            var values = Array(output)
            if let hierarchy, hierarchy.count == values.count {
                values.withUnsafeMutableBufferPointer { hierarchy.multiplyAlongPaths($0.baseAddress!, stride: 1, onlyLeaves: true) }
            }
            return values
        }
    }

    /// The layer a classifier reads its scores from: the last one that is not a `[cost]`.
    package static func outputLayer(of plan: NetworkPlan) -> LayerPlan? {
        plan.layers.last { layer in
            if case .cost = layer.spec.kind { return false }
            return true
        }
    }

    /// Indices of the `count` largest values, largest first; among equal values the lower
    /// index comes first (Darknet's `top_k`, which replaces only on strictly greater).
    public static func topK(_ values: UnsafeBufferPointer<Float>, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        var best: [Int] = []
        best.reserveCapacity(count + 1)
        for i in values.indices {
            guard best.count < count || values[i] > values[best[best.count - 1]] else { continue }
            var position = best.count
            while position > 0 && values[i] > values[best[position - 1]] { position -= 1 }
            best.insert(i, at: position)
            if best.count > count { best.removeLast() }
        }
        return best
    }
}

extension Classifier: CustomStringConvertible {
    /// The cfg, classes, input and threads, as
    /// `Classifier(darknet19.cfg: 1000 classes, input 256 x 256 x 3, 1 thread)`.
    public var description: String {
        let plan = network.plan, classes = counted(plan.layers[outputLayer].outputShape.count, "class", "classes")
        return "Classifier(\(plan.file): \(classes), input \(plan.inputShape), \(counted(threads, "thread")))"
    }
}
