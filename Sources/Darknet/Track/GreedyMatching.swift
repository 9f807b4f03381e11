/// Greedy assignment of detections to tracks by descending IoU.
enum GreedyMatching {
    /// A candidate pair: track position, detection position, and their IoU.
    struct Pair {
        let track: Int
        let detection: Int
        let iou: Float
    }

    /// Pairs every track with at most one detection and every detection with at most one
    /// track: all pairs allowed by `compatible` whose IoU is positive and at least `threshold`
    /// are sorted by descending IoU (ties: lower track position, then lower detection
    /// position; tracks are in ID order), then taken in that order when both sides are still free.
    /// - Returns: for each detection, the position of its track, or `nil`.
    static func match(predictions: [RelativeBox], detections: [RelativeBox], threshold: Float,
                      compatible: (_ track: Int, _ detection: Int) -> Bool) -> [Int?] {
        var pairs: [Pair] = []
        for (t, predicted) in predictions.enumerated() {
            for (d, box) in detections.enumerated() where compatible(t, d) {
                let iou = predicted.intersectionOverUnion(box)
                if iou > 0, iou >= threshold { pairs.append(Pair(track: t, detection: d, iou: iou)) }
            }
        }
        pairs.sort { a, b in
            if a.iou != b.iou { return a.iou > b.iou }
            return a.track != b.track ? a.track < b.track : a.detection < b.detection
        }
        var trackTaken = [Bool](repeating: false, count: predictions.count)
        var result = [Int?](repeating: nil, count: detections.count)
        for pair in pairs where !trackTaken[pair.track] && result[pair.detection] == nil {
            trackTaken[pair.track] = true
            result[pair.detection] = pair.track
        }
        return result
    }
}
