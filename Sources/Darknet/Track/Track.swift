/// One live track of an `ObjectTracker`: the last box it was detected with, its smoothed
/// velocity, and its smoothing state.
struct Track: Sendable {
    let id: Int
    /// The class of the detection that last continued the track.
    private(set) var classIndex: Int
    /// The last detected box (unsmoothed).
    private(set) var box: RelativeBox
    /// Change of `box`'s x, y, width and height per frame index (smoothed); zero for a new track.
    private(set) var velocity = RelativeBox(x: 0, y: 0, width: 0, height: 0)
    /// The frame index of the last detection.
    private(set) var lastFrame: Int
    /// Frames the track was detected in.
    private(set) var hits = 1
    private var smoother: BoxSmoother

    /// A new track from `detection` at `frame`; `reported` is the box to report for it.
    init(id: Int, detection: Detection, frame: Int, smoothing: BoxSmoothing) {
        self.id = id
        self.classIndex = detection.classIndex
        self.box = detection.box
        self.lastFrame = frame
        self.smoother = BoxSmoother(smoothing)
        _ = smoother.add(detection.box)
    }

    /// Where the box is expected at `frame`: each of x, y, width and height moved by its
    /// velocity times the frames elapsed (`frame - lastFrame`); width and height at least 0.
    func predicted(at frame: Int) -> RelativeBox {
        let steps = Float(frame - lastFrame)
        return RelativeBox(x: box.x + velocity.x * steps, y: box.y + velocity.y * steps,
                           width: max(0, box.width + velocity.width * steps),
                           height: max(0, box.height + velocity.height * steps))
    }

    /// Continues the track with `detection` at `frame` (after `lastFrame`) and returns the
    /// smoothed box to report.
    ///
    /// The measured velocity is the change of each component divided by the frames elapsed;
    /// it is blended into the velocity (0 for a new track) with `weight`, so one noisy step
    /// of a young track moves its predictions only part of the way.
    mutating func update(with detection: Detection, frame: Int, velocityWeight weight: Float) -> RelativeBox {
        let steps = Float(frame - lastFrame)
        let new = detection.box
        func blend(_ now: Float, _ before: Float, _ v: Float) -> Float { weight * ((now - before) / steps) + (1 - weight) * v }
        velocity = RelativeBox(x: blend(new.x, box.x, velocity.x), y: blend(new.y, box.y, velocity.y),
                               width: blend(new.width, box.width, velocity.width),
                               height: blend(new.height, box.height, velocity.height))
        box = new
        classIndex = detection.classIndex
        lastFrame = frame
        hits += 1
        return smoother.add(new)
    }
}
