import Darknet
import Foundation

/// A loaded model the server answers with: `/v1/vision/detection` (the first model) or
/// `/v1/vision/custom/<name>`, and its load time for `/metrics`.
public struct ServedModel: Sendable {
    /// The name in `/v1/vision/custom/<name>`, the model list and the metrics' `model` label.
    public let name: String
    /// Shared by every request; its session pool bounds the passes that run at once.
    public let detector: Detector
    /// Seconds the model took to parse, plan and load.
    public let loadSeconds: Double
    /// The files it was loaded from, if known: Frigate's handshake recognises the weights
    /// file's name.
    public let files: Files?

    /// Where a model came from.
    public struct Files: Sendable {
        public let cfg: URL
        public let weights: URL
        public let names: URL?

        public init(cfg: URL, weights: URL, names: URL?) {
            (self.cfg, self.weights, self.names) = (cfg, weights, names)
        }
    }

    public init(name: String, detector: Detector, loadSeconds: Double, files: Files? = nil) {
        self.name = name
        self.detector = detector
        self.loadSeconds = loadSeconds
        self.files = files
    }

    /// The arithmetic the plan's layers compute in besides float32 (`bfloat16`, `int8`, or
    /// `int16+int8` for int8 with 16-bit layers), or `float32` when there is none: the metrics'
    /// and the status page's `arithmetic`.
    public var arithmetic: String {
        let reduced = Set(detector.network.plan.layers.map(\.arithmetic)).subtracting([.float32])
        return reduced.isEmpty ? "float32" : reduced.map(\.rawValue).sorted().joined(separator: "+")
    }

    /// Whether Frigate's `model_name` (the file name of its `model.path`) means this model: its
    /// name, alone or with `.weights`, `.tar` or `.cfg`, or its weights file's name.
    func answers(frigateName: String) -> Bool {
        frigateName == name || ["weights", "tar", "cfg"].contains { frigateName == "\(name).\($0)" }
            || frigateName == files?.weights.lastPathComponent
    }

    /// Whether `name` can be a model name: letters, digits, `-`, `_` and `.`, not "list".
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name != "list" && name.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) }
    }
}
