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

    public init(name: String, detector: Detector, loadSeconds: Double) {
        self.name = name
        self.detector = detector
        self.loadSeconds = loadSeconds
    }

    /// Whether `name` can be a model name: letters, digits, `-`, `_` and `.`, not "list".
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name != "list" && name.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) }
    }
}
