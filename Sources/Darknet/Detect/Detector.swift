import Foundation

/// Why a detector could not be built or run.
public enum DetectorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The names file lists fewer labels than the network has classes.
    case tooFewLabels(file: String, labels: Int, classes: Int)
    /// The image's channel count differs from the network input's.
    case channelMismatch(expected: Int, actual: Int)
    /// The network has no detection head (`[yolo]` or `[region]`).
    case noDetectionHead
    /// Detection heads disagree on the number of classes (`layer` has `classes`, the last
    /// head `expected`); their boxes cannot be suppressed and reported together.
    case classCountMismatch(layer: Int, classes: Int, expected: Int)

    public var description: String {
        switch self {
        case .tooFewLabels(let file, let labels, let classes):
            "\(file): \(labels) labels for a network with \(classes) classes"
        case .channelMismatch(let expected, let actual):
            "the image has \(actual) channels, the network expects \(expected)"
        case .noDetectionHead:
            "the network has no [yolo] or [region] layer to decode detections from"
        case .classCountMismatch(let layer, let classes, let expected):
            "detection layer \(layer) has \(classes) classes, the last detection layer \(expected)"
        }
    }
}

/// Finds objects in images with a Darknet detection network, giving Darknet's own results:
/// letterbox, forward pass, YOLO decoding, `do_nms_sort`.
///
/// `Detector` is immutable and `Sendable`: call `detect` from any number of threads at once.
/// Each call borrows an `InferenceSession` from a small pool (creating one when all are busy),
/// so the weights are shared and no two threads share scratch memory.
public final class Detector: Sendable {
    /// The network, shared by every session.
    public let network: Network
    /// Class names, index for index.
    public let labels: [String]
    /// Threads each `detect` call may use.
    public let threads: Int
    private let sessions = SessionPool()

    /// Loads a detector from Darknet files.
    /// - Parameters:
    ///   - names: a names file (one label per line, e.g. `coco.names`); without it labels are
    ///     class indices.
    /// - Throws: `FileError`, `CfgError`, `PlanError`, `WeightsError`, `DetectorError`.
    public convenience init(cfg: URL, weights: URL, names: URL? = nil, threads: Int = 1,
                            options: PlanOptions = PlanOptions()) throws {
        let network = try Network(cfg: cfg, weights: weights, options: options)
        let labels = try names.map { url throws in try Self.readLabels(url) } ?? []
        try self.init(network: network, labels: labels, labelsFile: names?.path ?? "<labels>", threads: threads)
    }

    /// Wraps a loaded network. `labels` may be empty (indices are used) or cover every class.
    /// - Parameter threads: threads one `detect` call may use; results do not depend on it.
    public init(network: Network, labels: [String] = [], labelsFile: String = "<labels>", threads: Int = 1) throws {
        let classes = try DetectionDecoder.checkedClassCount(of: network.plan)
        guard labels.isEmpty || labels.count >= classes else {
            throw DetectorError.tooFewLabels(file: labelsFile, labels: labels.count, classes: classes)
        }
        self.network = network
        self.labels = labels
        self.threads = max(1, threads)
    }

    /// Detects objects; boxes are in `image`'s own pixels.
    public func detect(_ image: Image, threshold: Float = 0.5, hierThreshold: Float = 0.5,
                       nmsThreshold: Float = 0.45) throws -> [Detection] {
        try detect(image, options: DetectionOptions(threshold: threshold, hierThreshold: hierThreshold, nmsThreshold: nmsThreshold))
    }

    /// Detects objects with explicit options.
    public func detect(_ image: Image, options: DetectionOptions) throws -> [Detection] {
        let (input, geometry) = try prepare(image, letterbox: options.letterbox)
        let session = sessions.take() ?? InferenceSession(network: network, threads: threads)
        defer { sessions.give(session) }
        try session.forward(input.pixels)
        return try DetectionDecoder.decode(session, geometry: geometry, labels: labels, options: options)
    }

    /// The network input for `image` (letterboxed, or stretched) and where the image sits in it.
    public func prepare(_ image: Image, letterbox: Bool = true) throws -> (image: Image, geometry: LetterboxGeometry) {
        let shape = network.inputShape
        guard image.channels == shape.channels else {
            throw DetectorError.channelMismatch(expected: shape.channels, actual: image.channels)
        }
        return letterbox ? try image.letterboxed(width: shape.width, height: shape.height)
                         : try image.stretched(width: shape.width, height: shape.height)
    }

    /// Reads a Darknet names file: one label per line (a final newline adds no label).
    public static func readLabels(_ url: URL) throws -> [String] {
        let bytes = try readFile(url)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(path: url.path, reason: "not UTF-8 text")
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmingWhitespace() }.map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
