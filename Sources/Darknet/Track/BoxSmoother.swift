/// One track's smoothing state for a `BoxSmoothing`: the boxes a moving average still needs,
/// or the running exponential average.
struct BoxSmoother: Sendable {
    let smoothing: BoxSmoothing
    /// `.movingAverage`: the edges of the last detections, oldest first (at most `frames`).
    private var window: [BoxEdges] = []
    /// `.exponential`: the smoothed edges so far.
    private var average: BoxEdges?

    init(_ smoothing: BoxSmoothing) {
        self.smoothing = smoothing
    }

    /// Adds the track's newest detected box and returns the box to report for it.
    mutating func add(_ box: RelativeBox) -> RelativeBox {
        switch smoothing {
        case .none:
            return box
        case .movingAverage(let frames):
            let capacity = max(1, frames)
            if capacity == 1 { return box }
            if window.count == capacity { window.removeFirst() }
            window.append(BoxEdges(box))
            var sum = BoxEdges(left: 0, top: 0, right: 0, bottom: 0)
            for edges in window { sum = sum + edges }
            return (sum / Double(window.count)).box
        case .exponential(let factor):
            let weight = factor.isNaN ? 1 : Double(min(max(factor, 0), 1))
            let edges = BoxEdges(box)
            guard let previous = average else {
                average = edges
                return box
            }
            let next = weight * edges + (1 - weight) * previous
            average = next
            return next.box
        }
    }
}
