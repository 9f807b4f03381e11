/// Gives detections stable IDs across the frames of a video, and optionally smooths their
/// boxes: IoU matching with a constant-velocity prediction, as SORT (Bewley et al., 2016)
/// does it but without SORT's Kalman filter.
///
/// Call `update` once per processed frame, with the frame's index in the video. Indices may
/// jump (frames the pipeline dropped): predictions and ages count frame indices, not calls.
/// Each `update(_:frameIndex:imageWidth:imageHeight:)` at frame `f`:
///
/// 1. If `f` is not greater than the previous call's index (a new video, or a restarted
///    counter), every track is dropped first, as by `reset()`.
/// 2. Tracks last detected at `g` with `f - g - 1 > maxAge` (missed for more than `maxAge`
///    frame indices in a row already) are dropped.
/// 3. Each track's box is predicted at `f`: its last detected box with each of x, y, width
///    and height moved by the track's velocity times `f - g` (width and height at least 0).
/// 4. Matching: every (track, detection) pair — of the same class when `perClass` — whose
///    IoU (`RelativeBox.intersectionOverUnion`, predicted box against detected box) is
///    positive and at least `iouThreshold` is a candidate. Candidates are taken greedily in
///    order of descending IoU (ties: lower track ID, then earlier detection) whenever neither
///    side is taken yet.
/// 5. A matched track takes the detection's box and class. Its velocity (per frame index,
///    0 for a new track) becomes `velocityWeight * measured + (1 - velocityWeight) * velocity`,
///    where `measured = (new - old) / (f - g)` for each of x, y, width and height: an
///    exponential average, so the detector's frame-to-frame noise on a young track does not
///    throw its predictions far off across a gap.
/// 6. Each unmatched detection starts a new track, in the order of `detections`, with the
///    next ID: IDs count up from 1 over the tracker's life and are never reused.
/// 7. Unmatched tracks with `f - g > maxAge` are dropped; the rest are kept for later frames.
///
/// The result has one `TrackedDetection` per detection, in the order given, with the box
/// smoothed over the track's detections as `TrackerOptions.smoothing` says. An update costs
/// one IoU per (track, detection) pair and a sort of the candidate pairs. The tracker is a
/// value: copying it copies every track.
///
/// ```swift
/// var tracker = ObjectTracker(options: TrackerOptions(smoothing: .movingAverage(frames: 10)))
/// for (index, frame) in frames.enumerated() {
///     let found = try detector.detect(frame, threshold: 0.25)
///     for item in tracker.update(found, frameIndex: index, imageWidth: frame.width, imageHeight: frame.height) {
///         print(item.trackID, item.label, item.rect)
///     }
/// }
/// ```
public struct ObjectTracker: Sendable {
    /// The settings, fixed at creation.
    public let options: TrackerOptions
    /// The index passed to the last `update`, or `nil` before the first (and after `reset()`).
    public private(set) var lastFrameIndex: Int?
    /// The ID the next new track gets.
    public private(set) var nextTrackID = 1
    private var tracks: [Track] = []

    public init(options: TrackerOptions = TrackerOptions()) {
        self.options = options
    }

    /// The number of tracks kept for matching in later frames.
    public var liveTrackCount: Int { tracks.count }

    /// Drops every track (the next `update` starts afresh). IDs keep counting: a track
    /// started after a reset never gets an ID used before it.
    public mutating func reset() {
        tracks.removeAll()
        lastFrameIndex = nil
    }

    /// Matches the detections of frame `frameIndex` to the tracks and returns them with their
    /// track IDs and reported boxes, in the order given (see the type's documentation for the
    /// algorithm).
    /// - Parameters:
    ///   - detections: the frame's detections, e.g. `Detector.detect`'s result.
    ///   - frameIndex: the frame's index in the video; it should increase from call to call
    ///     (a smaller or equal one starts afresh, as after `reset()`).
    ///   - imageWidth: the frame's width in pixels, for the smoothed boxes' `rect`.
    ///   - imageHeight: the frame's height in pixels.
    public mutating func update(_ detections: [Detection], frameIndex: Int,
                                imageWidth: Int, imageHeight: Int) -> [TrackedDetection] {
        if let last = lastFrameIndex, frameIndex <= last { reset() }
        lastFrameIndex = frameIndex
        let maxAge = options.effectiveMaxAge
        tracks.removeAll { Self.age(at: frameIndex, since: $0.lastFrame) - 1 > maxAge }

        let predictions = tracks.map { $0.predicted(at: frameIndex) }
        let perClass = options.perClass
        let assignment = GreedyMatching.match(predictions: predictions, detections: detections.map(\.box),
                                              threshold: options.iouThreshold) { [tracks] t, d in
            !perClass || tracks[t].classIndex == detections[d].classIndex
        }

        var matched = [Bool](repeating: false, count: tracks.count)
        var results: [TrackedDetection] = []
        results.reserveCapacity(detections.count)
        for (d, detection) in detections.enumerated() {
            let box: RelativeBox, id: Int, hits: Int
            if let t = assignment[d] {
                matched[t] = true
                box = tracks[t].update(with: detection, frame: frameIndex, velocityWeight: options.effectiveVelocityWeight)
                (id, hits) = (tracks[t].id, tracks[t].hits)
            } else {
                let track = Track(id: nextTrackID, detection: detection, frame: frameIndex, smoothing: options.smoothing)
                nextTrackID += 1
                tracks.append(track)
                matched.append(true)
                (box, id, hits) = (detection.box, track.id, 1)
            }
            let rect = options.smoothing == .none ? detection.rect
                : box.pixelRect(imageWidth: imageWidth, imageHeight: imageHeight)
            results.append(TrackedDetection(detection: detection, trackID: id, hits: hits, box: box, rect: rect))
        }
        tracks = zip(tracks, matched).compactMap { track, wasMatched in
            wasMatched || Self.age(at: frameIndex, since: track.lastFrame) <= maxAge ? track : nil
        }
        return results
    }

    /// `frame - last` (positive: `frame` is later), or `Int.max` if it overflows, so that
    /// extreme frame indices drop old tracks instead of trapping.
    static func age(at frame: Int, since last: Int) -> Int {
        let (age, overflow) = frame.subtractingReportingOverflow(last)
        return overflow ? Int.max : age
    }
}
