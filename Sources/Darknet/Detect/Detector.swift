import Foundation

/// Why a detector could not be built or run.
public enum DetectorError: DarknetError, Equatable, Sendable {
    /// The names file lists fewer labels than the network has classes.
    case tooFewLabels(file: String, labels: Int, classes: Int)
    /// The image's channel count differs from the network input's.
    case channelMismatch(expected: Int, actual: Int)
    /// The network of `cfg` has no detection head (`[yolo]` or `[region]`).
    case noDetectionHead(cfg: String)
    /// Detection heads disagree on the number of classes (`layer`, whose section starts at
    /// `line` of `cfg`, has `classes`, the last head `expected`); their boxes cannot be
    /// suppressed and reported together.
    case classCountMismatch(cfg: String, line: Int, layer: Int, classes: Int, expected: Int)

    public var description: String {
        switch self {
        case .tooFewLabels(let file, let labels, let classes):
            "\(file): \(labels) labels for a network with \(classes) classes"
        case .channelMismatch(let expected, let actual):
            "the image has \(actual) channels, the network expects \(expected)"
        case .noDetectionHead(let cfg):
            "\(cfg): the network has no [yolo] or [region] layer to decode detections from"
        case .classCountMismatch(let cfg, let line, let layer, let classes, let expected):
            "\(cfg):\(line): detection layer \(layer) has \(classes) classes, the last detection layer \(expected)"
        }
    }
}

/// Finds objects in images with a Darknet detection network, giving Darknet's own results:
/// letterbox, forward pass, YOLO decoding, `do_nms_sort`.
///
/// `Detector` is immutable and `Sendable`: call `detect` from any number of threads or tasks at
/// once. Each call borrows an `InferenceSession` from a pool bounded by `sessionPolicy`
/// (callers beyond `maximumSessions` wait; idle sessions are freed after `idleTimeout`), so the
/// weights are shared and no two calls share scratch memory. The `async` variants run the
/// forward pass on the library's own threads, never blocking Swift's cooperative pool.
///
/// Threads: by default each call's forward pass runs on **one** thread, so concurrent calls
/// (a server, a batch) each use a core of their own. A single caller wanting all of them, as
/// the command line does by default, passes `threads: AvailableCores.count` (the cores this
/// process may use: its CPU affinity and cgroup quota). Results are the same, bit for bit, for
/// any thread count.
///
/// ```swift
/// let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL, threads: AvailableCores.count)
/// let found = try detector.detect(image, threshold: 0.5)
/// ```
public final class Detector: LabelledModel, Sendable {
    /// The network, shared by every session.
    public let network: Network
    /// Class names, index for index.
    public let labels: [String]
    /// Threads each `detect` call may use.
    public let threads: Int
    /// How many sessions exist at once and how long idle ones are kept.
    public let sessionPolicy: SessionPolicy
    let runner: SessionRunner
    /// Single-threaded sessions for the tiles of an image, run `threads` at a time
    /// (`DetectionOptions.tiling`); nil with one thread (the tiles run one after another).
    let tileSessions: SessionPool?

    /// Wraps a loaded network.
    /// - Parameters:
    ///   - network: a network with at least one detection head.
    ///   - labels: class names, index for index: empty (indices are used) or covering every class.
    ///   - labelsFile: where the labels came from, named in errors.
    ///   - threads: threads one `detect` call may use (default 1; `AvailableCores.count` for all
    ///     the cores this process may use); results do not depend on it.
    ///   - sessionPolicy: how many sessions exist at once and how long idle ones are kept.
    public init(network: Network, labels: [String] = [], labelsFile: String = "<labels>", threads: Int = 1,
                sessionPolicy: SessionPolicy = SessionPolicy()) throws {
        let classes = try DetectionDecoder.checkedClassCount(of: network.plan)
        guard labels.isEmpty || labels.count >= classes else {
            throw DetectorError.tooFewLabels(file: labelsFile, labels: labels.count, classes: classes)
        }
        self.network = network
        self.labels = labels
        try sessionPolicy.validate(threads: threads)
        self.threads = threads
        self.sessionPolicy = sessionPolicy
        runner = SessionRunner(policy: sessionPolicy, name: "SwiftDarknet.Detector") {
            InferenceSession(network: network, threads: threads)
        }
        tileSessions = threads > 1
            ? SessionPool(policy: SessionPolicy(maximumSessions: threads, idleTimeout: sessionPolicy.idleTimeout)) {
                InferenceSession(network: network, threads: 1)
            } : nil
    }

    /// Detects objects; boxes are in `image`'s own pixels.
    public func detect(_ image: PlanarImage, threshold: Float = 0.5, hierThreshold: Float = 0.5,
                       nmsThreshold: Float = 0.45) throws -> [Detection] {
        try detect(image, options: DetectionOptions(threshold: threshold, hierThreshold: hierThreshold, nmsThreshold: nmsThreshold))
    }

    /// Detects objects with explicit options.
    /// - Throws: `ArgumentError` for invalid options (`DetectionOptions.validate()`),
    ///   `DetectorError.channelMismatch`, `ImageError`.
    public func detect(_ image: PlanarImage, options: DetectionOptions) throws -> [Detection] {
        try options.validate()
        if let tiling = options.tiling { return try detect(image, options: options, tiling: tiling) }
        let (input, geometry) = try prepare(image, letterbox: options.letterbox)
        return try detect(prepared: input, geometry: geometry, options: options)
    }

    /// Detects objects in 8-bit pixels (a camera or decoder frame), letterboxed straight from
    /// the bytes into the network input (see `PixelBuffer.letterbox(into:width:height:channels:)`).
    /// - Parameters:
    ///   - pixels: the frame.
    ///   - region: only this part of the frame is searched (a crop); the boxes'
    ///     `rect` is still in the whole frame's pixels, their relative `box` in the region's.
    ///   - options: thresholds, letterboxing, tiling (`DetectionOptions`).
    /// - Returns: for RGB-family pixels, exactly what `detect(PlanarImage(pixels: pixels), options:)`
    ///   returns.
    public func detect(_ pixels: PixelBuffer, region: PixelRegion? = nil,
                       options: DetectionOptions = DetectionOptions()) throws -> [Detection] {
        try options.validate()
        let source = try region.map { region throws(PixelBufferError) in try pixels.cropped(to: region) } ?? pixels
        if let tiling = options.tiling { return try detect(source, options: options, tiling: tiling).offset(by: region) }
        return try runner.run { pooled in
            let geometry = try self.prepareInput(source, letterbox: options.letterbox, into: pooled.input)
            return try self.detect(input: pooled.input, geometry: geometry, in: pooled, options: options)
                .offset(by: region)
        }
    }

    /// `detect(_:options:)` with the forward pass on the library's own threads; the calling
    /// task suspends meanwhile. A task cancelled before its pass starts throws
    /// `CancellationError` without running it.
    public func detect(_ image: PlanarImage, options: DetectionOptions = DetectionOptions()) async throws -> [Detection] {
        try Task.checkCancellation()
        try options.validate()
        if let tiling = options.tiling { return try await offThePool { try self.detect(image, options: options, tiling: tiling) } }
        let (input, geometry) = try prepare(image, letterbox: options.letterbox)
        return try await runner.run { pooled in try self.detect(input: input.pixels, geometry: geometry, in: pooled, options: options) }
    }

    /// `detect(_:threshold:hierThreshold:nmsThreshold:)` with the forward pass on the library's
    /// own threads, so `try await detector.detect(image, threshold: 0.5)` in an `async` function
    /// or top-level code suspends instead of running the pass on its thread.
    /// - Parameters:
    ///   - image: the photo or frame; boxes are in its own pixels.
    ///   - threshold: the confidence a detection needs (Darknet's `-thresh`).
    ///   - hierThreshold: the hierarchy threshold of YOLO9000's tree (`-hier`).
    ///   - nmsThreshold: the IoU above which NMS drops the weaker box (`-nms`).
    ///
    /// ```swift
    /// for d in try await detector.detect(image, threshold: 0.5) { print(d.label, d.confidence) }
    /// ```
    public func detect(_ image: PlanarImage, threshold: Float, hierThreshold: Float = 0.5,
                       nmsThreshold: Float = 0.45) async throws -> [Detection] {
        try await detect(image, options: DetectionOptions(threshold: threshold, hierThreshold: hierThreshold, nmsThreshold: nmsThreshold))
    }

    /// `detect(_:region:options:)` with the forward pass on the library's own threads.
    public func detect(_ pixels: PixelBuffer, region: PixelRegion? = nil,
                       options: DetectionOptions = DetectionOptions()) async throws -> [Detection] {
        try options.validate()
        let source = try region.map { region throws(PixelBufferError) in try pixels.cropped(to: region) } ?? pixels
        if let tiling = options.tiling {
            return try await offThePool { try self.detect(source, options: options, tiling: tiling).offset(by: region) }
        }
        return try await runner.run { pooled in
            let geometry = try self.prepareInput(source, letterbox: options.letterbox, into: pooled.input)
            return try self.detect(input: pooled.input, geometry: geometry, in: pooled, options: options)
                .offset(by: region)
        }
    }

    /// Sessions created and alive, and calls run so far.
    public var sessionStatistics: SessionStatistics { runner.statistics }

    /// The network input for `image` (letterboxed, or stretched) and where the image sits in it.
    public func prepare(_ image: PlanarImage, letterbox: Bool = true) throws -> (image: PlanarImage, geometry: LetterboxGeometry) {
        let shape = network.inputShape
        guard image.channels == shape.channels else {
            throw DetectorError.channelMismatch(expected: shape.channels, actual: image.channels)
        }
        return letterbox ? try image.letterboxed(width: shape.width, height: shape.height)
                         : try image.stretched(width: shape.width, height: shape.height)
    }

    /// Detects objects in an input `prepare(_:letterbox:)` made: the forward pass and decoding
    /// only, so another thread can decode and letterbox the next image meanwhile (the
    /// command-line batches do). `detect(image, options:)` is `prepare` followed by this.
    /// - Throws: `InferenceError.inputSizeMismatch` when `input` is not the network input's size.
    package func detect(prepared input: PlanarImage, geometry: LetterboxGeometry,
                        options: DetectionOptions) throws -> [Detection] {
        try runner.run { pooled in try self.detect(input: input.pixels, geometry: geometry, in: pooled, options: options) }
    }

    /// Writes the network input for `pixels` (letterboxed, or stretched) into `input`.
    func prepareInput(_ pixels: PixelBuffer, letterbox: Bool,
                      into input: UnsafeMutableBufferPointer<Float>) throws -> LetterboxGeometry {
        let shape = network.inputShape
        return letterbox ? try pixels.letterbox(into: input, width: shape.width, height: shape.height, channels: shape.channels)
                         : try pixels.stretch(into: input, width: shape.width, height: shape.height, channels: shape.channels)
    }

    /// One forward pass on a prepared input and the decoded detections.
    func detect(input: UnsafeMutableBufferPointer<Float>, geometry: LetterboxGeometry, in pooled: PooledSession,
                options: DetectionOptions) throws -> [Detection] {
        try pooled.session.forward(UnsafeBufferPointer(input))
        return try DetectionDecoder.decode(pooled.session, geometry: geometry, labels: labels, options: options)
    }

    func detect(input: [Float], geometry: LetterboxGeometry, in pooled: PooledSession,
                options: DetectionOptions) throws -> [Detection] {
        try pooled.session.forward(input)
        return try DetectionDecoder.decode(pooled.session, geometry: geometry, labels: labels, options: options)
    }

    /// Reads a Darknet names file: one label per line (a final newline adds no label)
    /// (`ClassLabels.read`).
    public static func readLabels(_ url: URL) throws -> [String] { try ClassLabels.read(url) }
}

extension Detector: CustomStringConvertible {
    /// The cfg, classes, input and threads, as
    /// `Detector(yolov3-tiny.cfg: 80 classes, input 416 x 416 x 3, 1 thread)`.
    public var description: String {
        let plan = network.plan, classes = counted(DetectionDecoder.classCount(of: plan), "class", "classes")
        return "Detector(\(plan.file): \(classes), input \(plan.inputShape), \(counted(threads, "thread")))"
    }
}
