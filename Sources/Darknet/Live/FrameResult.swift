/// What a `DetectionPipeline` found in one frame.
///
/// `Codable`: `{"frame", "time", "detections", "statistics"}`, the first three as
/// `swift-darknet video --json` prints them (`time` in seconds). With tracking, each entry of
/// `detections` is the `TrackedDetection` (its `track` ID, the track's box as `x y w h`, and the
/// detection itself under `detection`), as the command prints it.
public struct FrameResult: Sendable, Equatable {
    /// The frame's index (its own, or its arrival number).
    public let index: Int
    /// The frame's presentation time.
    public let presentationTime: Duration
    /// Detections in the frame's pixels, shaped by the pipeline's `DetectionOptions`.
    public let detections: [Detection]
    /// The same detections with track IDs and (smoothed) boxes, in the same order, when the
    /// pipeline tracks (`tracking:`); empty otherwise.
    public let tracks: [TrackedDetection]
    /// How long it took and how the stream is going.
    public let statistics: FrameStatistics

    /// A result from its parts (to replay or test a consumer of results).
    public init(index: Int, presentationTime: Duration, detections: [Detection], tracks: [TrackedDetection] = [],
                statistics: FrameStatistics) {
        self.index = index
        self.presentationTime = presentationTime
        self.detections = detections
        self.tracks = tracks
        self.statistics = statistics
    }

    /// `presentationTime` in seconds.
    @available(*, deprecated, message: "use presentationTime (a Duration)")
    public var timestamp: Double { presentationTime.inSeconds }
}

/// Timings of one frame and the stream's running counts.
public struct FrameStatistics: Sendable, Equatable {
    /// From capture (`Frame.captureInstant`, else arrival) to the result.
    public let captureToResult: Duration
    /// Letterboxing the pixels into the network input.
    public let preprocessTime: Duration
    /// The forward pass.
    public let forwardTime: Duration
    /// Decoding boxes, NMS and shaping, and tracking when on.
    public let postprocessTime: Duration
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

    /// Statistics from their parts (to replay or test a consumer of results).
    public init(captureToResult: Duration, preprocessTime: Duration, forwardTime: Duration, postprocessTime: Duration,
                received: Int, processed: Int, dropped: Int, processedFPS: Double, inputFPS: Double) {
        self.captureToResult = captureToResult
        self.preprocessTime = preprocessTime
        self.forwardTime = forwardTime
        self.postprocessTime = postprocessTime
        self.received = received
        self.processed = processed
        self.dropped = dropped
        self.processedFPS = processedFPS
        self.inputFPS = inputFPS
    }

    /// `captureToResult` in seconds.
    @available(*, deprecated, message: "use captureToResult (a Duration)")
    public var latency: Double { captureToResult.inSeconds }
    /// `preprocessTime` in seconds.
    @available(*, deprecated, message: "use preprocessTime (a Duration)")
    public var preprocess: Double { preprocessTime.inSeconds }
    /// `forwardTime` in seconds.
    @available(*, deprecated, message: "use forwardTime (a Duration)")
    public var forward: Double { forwardTime.inSeconds }
    /// `postprocessTime` in seconds.
    @available(*, deprecated, message: "use postprocessTime (a Duration)")
    public var decode: Double { postprocessTime.inSeconds }
}

/// Exponentially averaged frame rate from the times of successive events.
struct RateMeter {
    private var last: ContinuousClock.Instant?
    private var averageInterval: Double?
    static let factor = 0.1

    /// Records an event at `time`.
    mutating func record(_ time: ContinuousClock.Instant) {
        defer { last = time }
        guard let last else { return }
        let interval = (time - last).inSeconds
        averageInterval = averageInterval.map { $0 + Self.factor * (interval - $0) } ?? interval
    }

    /// Events per second (0 before two events).
    var rate: Double {
        guard let averageInterval, averageInterval > 0 else { return 0 }
        return 1 / averageInterval
    }
}
