/// A detection with the track it belongs to, as `ObjectTracker.update` reports it.
public struct TrackedDetection: Sendable, Equatable {
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
}
