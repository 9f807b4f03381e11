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

    /// The convolutions' arithmetic: "int8" when the plan runs any convolution in integers, else
    /// "float32" (the metrics' `arithmetic` label).
    public var arithmetic: String { detector.network.plan.integerConvolutions.all > 0 ? "int8" : "float32" }

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
