/// What a `DetectionPipeline` found in one frame.
public struct FrameResult: Sendable {
    /// The frame's index (its own, or its arrival number).
    public let index: Int
    /// The frame's presentation time in seconds.
    public let timestamp: Double
    /// Detections in the frame's pixels, shaped by the pipeline's `DetectionOptions`.
    public let detections: [Detection]
    /// The same detections with track IDs and (smoothed) boxes, in the same order, when the
    /// pipeline tracks (`tracking:`); empty otherwise.
    public let tracks: [TrackedDetection]
    /// How long it took and how the stream is going.
    public let statistics: FrameStatistics
}

/// Timings of one frame and the stream's running counts. Durations are in seconds.
public struct FrameStatistics: Sendable, Equatable {
    /// From capture (`Frame.captureTime`, else arrival) to the result.
    public let latency: Double
    /// Letterboxing the pixels into the network input.
    public let preprocess: Double
    /// The forward pass.
    public let forward: Double
    /// Decoding boxes, NMS and shaping, and tracking when on.
    public let decode: Double
    /// Frames that reached the pipeline so far.
    public let received: Int
    /// Frames the network has run on so far, this one included.
    public let processed: Int
    /// Frames dropped so far (by the policy or the stride).
    public let dropped: Int
    /// Results per second, an exponential average of the intervals between results
    /// (factor 0.1; the first interval starts it).
    public let processedFPS: Double
    /// Arrivals per second, averaged the same way.
    public let inputFPS: Double
}

/// Exponentially averaged frame rate from the times of successive events.
struct RateMeter {
    private var last: UInt64?
    private var averageInterval: Double?
    static let factor = 0.1

    /// Records an event at `time` (nanoseconds).
    mutating func record(_ time: UInt64) {
        defer { last = time }
        guard let last else { return }
        let interval = Double(time &- last) / 1e9
        averageInterval = averageInterval.map { $0 + Self.factor * (interval - $0) } ?? interval
    }

    /// Events per second (0 before two events).
    var rate: Double {
        guard let averageInterval, averageInterval > 0 else { return 0 }
        return 1 / averageInterval
    }
}
