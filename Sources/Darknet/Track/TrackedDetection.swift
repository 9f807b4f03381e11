import Foundation

/// A detection with the track it belongs to, as `ObjectTracker.update` reports it.
///
/// `Identifiable` by its track: in SwiftUI, `ForEach(result.tracks)` keeps each box's view
/// across frames. `Codable`: the fields `swift-darknet video --track --json` prints for a
/// detection (`x y w h` the track's `rect`, `track` its ID), then `hits`, the track's relative
/// `box` and the detection itself under `detection`.
public struct TrackedDetection: Sendable, Equatable, Identifiable {
    /// The detection as the detector reported it (its `box` and `rect` unsmoothed).
    public let detection: Detection
    /// The track's ID: 1 for the tracker's first track, then increasing by one per new track;
    /// an ID is never given to another track, even after its track is dropped or the tracker
    /// is reset.
    public let trackID: Int
    /// The number of frames the track has been detected in, this one included (1 for a new
    /// track). Callers that want to hide short-lived tracks can filter on it.
    public let hits: Int
    /// The box to show: the detection's box smoothed over the track as `TrackerOptions.smoothing`
    /// says (the detection's own box with `.none`).
    public let box: RelativeBox
    /// `box` in the image's pixels, as Darknet draws it (`RelativeBox.pixelRect`); the
    /// detection's own `rect` with `.none`.
    public let rect: PixelRect

    /// The detection's class index.
    public var classIndex: Int { detection.classIndex }
    /// The detection's label.
    public var label: String { detection.label }
    /// The detection's confidence.
    public var confidence: Float { detection.confidence }

    /// The track's ID (`trackID`): unique among a frame's tracks, kept across frames.
    public var id: Int { trackID }
}

extension TrackedDetection: CustomStringConvertible {
    /// `#3 dog: 56% (x 129 y 186 w 240 h 331)`: the track ID, then the detection with the
    /// track's rectangle.
    public var description: String { String(format: "#%d %@: %.0f%% (%@)", trackID, label, confidence * 100, rect.description) }
}

extension TrackedDetection: Codable {
    private enum CodingKeys: String, CodingKey { case track, hits, box, detection }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(detection: try c.decode(Detection.self, forKey: .detection), trackID: try c.decode(Int.self, forKey: .track),
                  hits: try c.decode(Int.self, forKey: .hits), box: try c.decode(RelativeBox.self, forKey: .box),
                  rect: try PixelRect(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var reported = encoder.container(keyedBy: Detection.CodingKeys.self)
        try detection.encodeReported(rect: rect, into: &reported)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(trackID, forKey: .track)
        try c.encode(hits, forKey: .hits)
        try c.encode(box, forKey: .box)
        try c.encode(detection, forKey: .detection)
    }
}
