// The JSON of a pipeline's results: `{"frame", "time", "detections"}` as `swift-darknet video
// --json` prints them, then the statistics.

extension FrameResult: Codable {
    private enum CodingKeys: String, CodingKey { case frame, time, detections, tracks, statistics }

    /// Whether `tracks` are the tracked form of `detections`, entry for entry (the pipeline's
    /// results with tracking): then `detections` is written as the tracks, as the command prints it.
    private var tracksFollowDetections: Bool {
        !tracks.isEmpty && tracks.count == detections.count && zip(tracks, detections).allSatisfy { $0.detection == $1 }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let time = try c.decode(Double.self, forKey: .time)
        var detections: [Detection] = [], tracks: [TrackedDetection] = []
        var entries = try c.nestedUnkeyedContainer(forKey: .detections)
        while !entries.isAtEnd {
            switch try entries.decode(ReportedDetection.self) {
            case .plain(let detection): detections.append(detection)
            case .tracked(let track): tracks.append(track)
            }
        }
        guard detections.isEmpty || tracks.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .detections, in: c,
                                                   debugDescription: "tracked and untracked detections in one frame")
        }
        if !tracks.isEmpty {
            detections = tracks.map(\.detection)
        } else {
            tracks = try c.decodeIfPresent([TrackedDetection].self, forKey: .tracks) ?? []
        }
        self.init(index: try c.decode(Int.self, forKey: .frame), presentationTime: .rounded(seconds: time),
                  detections: detections, tracks: tracks, statistics: try c.decode(FrameStatistics.self, forKey: .statistics))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .frame)
        try c.encode(presentationTime.inSeconds, forKey: .time)
        if tracksFollowDetections {
            try c.encode(tracks, forKey: .detections)
        } else {
            try c.encode(detections, forKey: .detections)
            if !tracks.isEmpty { try c.encode(tracks, forKey: .tracks) }
        }
        try c.encode(statistics, forKey: .statistics)
    }

    /// An entry of `"detections"`: a tracked detection has a `track` ID.
    private enum ReportedDetection: Decodable {
        case plain(Detection)
        case tracked(TrackedDetection)

        private enum Keys: String, CodingKey { case track }

        init(from decoder: any Decoder) throws {
            let isTracked = try decoder.container(keyedBy: Keys.self).contains(.track)
            self = isTracked ? .tracked(try TrackedDetection(from: decoder)) : .plain(try Detection(from: decoder))
        }
    }
}

/// Durations in seconds (decoded to the nearest nanosecond), counts and rates under
/// snake-case names: `{"capture_to_result", "preprocess_time", "forward_time",
/// "postprocess_time", "received", "processed", "dropped", "processed_fps", "input_fps"}`.
extension FrameStatistics: Codable {
    private enum CodingKeys: String, CodingKey {
        case captureToResult = "capture_to_result", preprocessTime = "preprocess_time", forwardTime = "forward_time"
        case postprocessTime = "postprocess_time", received, processed, dropped
        case processedFPS = "processed_fps", inputFPS = "input_fps"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func duration(_ key: CodingKeys) throws -> Duration { .rounded(seconds: try c.decode(Double.self, forKey: key)) }
        self.init(captureToResult: try duration(.captureToResult), preprocessTime: try duration(.preprocessTime),
                  forwardTime: try duration(.forwardTime), postprocessTime: try duration(.postprocessTime),
                  received: try c.decode(Int.self, forKey: .received), processed: try c.decode(Int.self, forKey: .processed),
                  dropped: try c.decode(Int.self, forKey: .dropped), processedFPS: try c.decode(Double.self, forKey: .processedFPS),
                  inputFPS: try c.decode(Double.self, forKey: .inputFPS))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(captureToResult.inSeconds, forKey: .captureToResult)
        try c.encode(preprocessTime.inSeconds, forKey: .preprocessTime)
        try c.encode(forwardTime.inSeconds, forKey: .forwardTime)
        try c.encode(postprocessTime.inSeconds, forKey: .postprocessTime)
        try c.encode(received, forKey: .received)
        try c.encode(processed, forKey: .processed)
        try c.encode(dropped, forKey: .dropped)
        try c.encode(processedFPS, forKey: .processedFPS)
        try c.encode(inputFPS, forKey: .inputFPS)
    }
}
