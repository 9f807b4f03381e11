import Darknet
import Foundation

/// One detection as the DeepStack / CodeProject.AI API lists it: the label, the confidence
/// (0 to 1: Darknet's `objectness * class score`) and the box's edges in the image's pixels
/// (Darknet's own rectangle: `x_max - x_min` is `detect --json`'s `w`).
public struct DeepStackPrediction: Codable, Equatable, Sendable {
    public let label: String
    public let confidence: Float
    public let xMin: Int
    public let yMin: Int
    public let xMax: Int
    public let yMax: Int

    public init(_ detection: Detection) {
        label = detection.label
        confidence = detection.confidence
        xMin = detection.rect.left
        yMin = detection.rect.top
        xMax = detection.rect.right
        yMax = detection.rect.bottom
    }

    enum CodingKeys: String, CodingKey {
        case label, confidence
        case xMin = "x_min", yMin = "y_min", xMax = "x_max", yMax = "y_max"
    }
}

/// The body of a successful detection: `{"success": true, "predictions": [...], "count",
/// "inferenceMs", "processMs", "message", "code": 200, "command": "detect", "moduleId"}`,
/// predictions highest confidence first (Frigate's DeepStack client stops at the first below
/// its threshold).
public struct DeepStackDetectionResponse: Codable, Equatable, Sendable {
    public let success: Bool
    public let predictions: [DeepStackPrediction]
    public let count: Int
    /// Forward pass and decoding, milliseconds.
    public let inferenceMs: Int
    /// From the request's arrival to the response: queue, image decoding, inference.
    public let processMs: Int
    /// "Found dog, bicycle, truck" or "No objects found", as CodeProject.AI writes it.
    public let message: String
    public let code: Int
    public let command: String
    public let moduleId: String

    public init(predictions: [DeepStackPrediction], inferenceMs: Int, processMs: Int) {
        success = true
        self.predictions = predictions
        count = predictions.count
        self.inferenceMs = inferenceMs
        self.processMs = processMs
        var labels: [String] = []
        for p in predictions where !labels.contains(p.label) { labels.append(p.label) }
        message = labels.isEmpty ? "No objects found" : "Found " + labels.joined(separator: ", ")
        code = 200
        command = "detect"
        moduleId = "swift-darknet"
    }
}

/// `POST /v1/vision/custom/list`: `{"success": true, "models": [...]}`.
struct DeepStackModelList: Codable, Equatable, Sendable {
    let success: Bool
    let models: [String]
}

/// An error in the API's shape: `{"success": false, "error": "...", "code": status}`.
struct DeepStackError: Codable, Equatable, Sendable {
    let success: Bool
    let error: String
    let code: Int

    init(_ message: String, status: Int) {
        success = false
        error = message
        code = status
    }
}

extension Encodable {
    /// This value as compact JSON bytes (keys in a fixed order).
    func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Values built here always encode; a failure would be a programming error.
        guard let data = try? encoder.encode(self) else { preconditionFailure("\(Self.self) did not encode") }
        return [UInt8](data)
    }
}
