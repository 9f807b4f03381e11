/// The settings of `darknet detector map`: what counts as a match, how a class's precision /
/// recall curve becomes its AP, and the confidence the TP/FP/FN line is counted at.
public struct MeanAveragePrecisionOptions: Sendable, Equatable, Codable {
    /// A detection matches a truth of its class when their IoU is **greater than** this
    /// (`-iou_thresh`, 0.5).
    public var iouThreshold: Float
    /// `-points`: 0 (the default) is the area under the precision envelope at every recall the
    /// curve reaches (VOC 2010-2012, ImageNet); 11 is VOC 2007's, 101 COCO's interpolation at
    /// that many evenly spaced recalls. Any count from 2 is allowed, as in Darknet.
    public var points: Int
    /// `-thresh` (0.25): detections above it are counted in the TP, FP, FN, precision, recall,
    /// F1 and average IoU of the report (the AP uses every detection).
    public var confidenceThreshold: Float

    public init(iouThreshold: Float = 0.5, points: Int = 0, confidenceThreshold: Float = 0.25) {
        self.iouThreshold = iouThreshold
        self.points = points
        self.confidenceThreshold = confidenceThreshold
    }

    enum CodingKeys: String, CodingKey {
        case iouThreshold = "iou_thresh"
        case points
        case confidenceThreshold = "thresh"
    }

    /// Fails on values Darknet would divide by zero or never match with.
    public func validate() throws(EvaluationError) {
        guard iouThreshold >= 0, iouThreshold < 1 else {
            throw .invalidOption(name: "the IoU threshold", value: "\(iouThreshold)", expected: "a number in 0..<1")
        }
        guard points == 0 || points >= 2 else {
            throw .invalidOption(name: "points", value: "\(points)", expected: "0 (area under the curve) or a count >= 2 (11, 101)")
        }
        guard confidenceThreshold >= 0, confidenceThreshold <= 1 else {
            throw .invalidOption(name: "the confidence threshold", value: "\(confidenceThreshold)", expected: "a number in 0...1")
        }
    }
}
