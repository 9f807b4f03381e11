/// Settings of an `ObjectTracker`.
///
/// The defaults follow SORT (Bewley et al., 2016) where it has one: an IoU of at least 0.3
/// to match. A lost track is kept for 30 frame indices (one second of 30 fps video) so that an
/// object missed for a few frames, or hidden behind another, keeps its ID.
public struct TrackerOptions: Sendable, Equatable {
    /// The smallest intersection over union (Darknet's `box_iou`) between a track's predicted
    /// box and a detection for the two to be matched (0.3). A pair whose IoU is 0 never matches,
    /// whatever the threshold.
    public var iouThreshold: Float
    /// How many frame indices in a row a track may go unmatched and still be matched again (30).
    /// A track last matched at frame `f` can be matched at any frame up to `f + maxAge + 1`;
    /// the first update at frame `f + maxAge + 1` or later that does not match it drops it.
    /// Frames the caller skipped count: ages are differences of frame indices. Negative values
    /// count as 0 (a track must be matched on the very next frame index).
    public var maxAge: Int
    /// Match detections only to tracks of the same class (on by default). When off, any
    /// detection may continue any track; Darknet reports a box that passes for two classes as
    /// two detections, and the second then starts a track of its own.
    public var perClass: Bool
    /// The weight of the newest velocity measurement in the track's velocity, 0...1 (0.5):
    /// `velocity = weight * measured + (1 - weight) * velocity`, starting from 0 for a new
    /// track. 1 predicts with the last measured step only; 0 never predicts motion (each track
    /// is expected where it was last seen). Values outside 0...1 are clamped, NaN counts as 1.
    public var velocityWeight: Float
    /// How the reported boxes are smoothed (`.none` by default: boxes are the detections').
    public var smoothing: BoxSmoothing

    public init(iouThreshold: Float = 0.3, maxAge: Int = 30, perClass: Bool = true,
                velocityWeight: Float = 0.5, smoothing: BoxSmoothing = .none) {
        self.iouThreshold = iouThreshold
        self.maxAge = maxAge
        self.perClass = perClass
        self.velocityWeight = velocityWeight
        self.smoothing = smoothing
    }

    /// `maxAge`, at least 0.
    var effectiveMaxAge: Int { max(0, maxAge) }

    /// `velocityWeight` clamped to 0...1, NaN as 1.
    var effectiveVelocityWeight: Float {
        velocityWeight.isNaN ? 1 : min(max(velocityWeight, 0), 1)
    }
}
