/// What a `ClassificationPipeline` found in one frame: its classes, most probable first.
///
/// `Codable`: `{"frame", "time", "predictions", "statistics"}`, the first three as
/// `swift-darknet classify-video --json` prints them (`time` in seconds, each prediction
/// `{"class", "label", "prob"}`).
public struct FrameClassification: Sendable, Equatable {
    /// The frame's index (its own, or its arrival number).
    public let index: Int
    /// The frame's presentation time.
    public let presentationTime: Duration
    /// The classes the pipeline's `ClassificationOptions` ask for, most probable first.
    public let classifications: [Classification]
    /// How long it took and how the stream is going (`postprocessTime`: ranking the classes).
    public let statistics: FrameStatistics

    /// A result from its parts (to replay or test a consumer of results).
    public init(index: Int, presentationTime: Duration, classifications: [Classification], statistics: FrameStatistics) {
        self.index = index
        self.presentationTime = presentationTime
        self.classifications = classifications
        self.statistics = statistics
    }
}

extension FrameClassification: Codable {
    private enum CodingKeys: String, CodingKey { case frame, time, predictions, statistics }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(index: try c.decode(Int.self, forKey: .frame),
                  presentationTime: .rounded(seconds: try c.decode(Double.self, forKey: .time)),
                  classifications: try c.decode([Classification].self, forKey: .predictions),
                  statistics: try c.decode(FrameStatistics.self, forKey: .statistics))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .frame)
        try c.encode(presentationTime.inSeconds, forKey: .time)
        try c.encode(classifications, forKey: .predictions)
        try c.encode(statistics, forKey: .statistics)
    }
}
