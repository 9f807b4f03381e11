/// How an `ObjectTracker` smooths the boxes it reports for a track.
///
/// Smoothing works on the four edges of the box in relative coordinates (left `x - w/2`,
/// top `y - h/2`, right `x + w/2`, bottom `y + h/2`, as fractions of the image), each on its
/// own, over the frames the track was matched in (frames it was missed in, or that were not
/// processed, contribute nothing). The smoothed edges are computed in double precision and
/// turned back into a centre and size (`x = (left + right) / 2`, `width = right - left`)
/// rounded to float. Only the reported box changes: matching and prediction always use the
/// detections' own boxes.
public enum BoxSmoothing: Sendable, Equatable {
    /// The detection's own box.
    case none
    /// The mean of each edge over the last `frames` detections of the track, this one
    /// included (fewer while the track is younger). `frames` below 1 counts as 1, i.e. no
    /// smoothing. The tutorial's live demo averages 30; a constant motion of `v` per frame
    /// then lags by `v * (frames - 1) / 2`.
    case movingAverage(frames: Int)
    /// An exponential moving average of each edge: the first detection of a track is reported
    /// as it is, each later one as `factor * edge + (1 - factor) * previous smoothed edge`.
    /// `factor` is the weight of the newest box, clamped to 0...1 (NaN counts as 1, no
    /// smoothing).
    case exponential(factor: Float)
}
