/// A class's precision / recall curve over its detections in confidence order, and AlexeyAB's
/// rules for its average precision (`validate_detector_map`), in double precision as there.
struct PrecisionRecallCurve {
    /// Precision and recall after each detection of the class, in rank order.
    private(set) var precision: [Double] = []
    private(set) var recall: [Double] = []

    /// The curve of detections ranked by confidence whose outcome is `isTruePositive`, for a
    /// class with `truths` objects. Without objects the recall stays 0 (Darknet's rule).
    init(_ isTruePositive: some Sequence<Bool>, truths: Int) {
        var tp = 0, fp = 0
        for hit in isTruePositive {
            if hit { tp += 1 } else { fp += 1 }
            precision.append(Double(tp) / Double(tp + fp))
            recall.append(truths > 0 ? Double(tp) / Double(truths) : 0)
        }
    }

    /// `points == 0`: the area under the precision envelope, summed from the last rank to the
    /// first over each change of recall (Darknet's loop, which takes the envelope including the
    /// rank where the recall was lower; at a true positive precision never falls, so this is
    /// the usual envelope). Otherwise the mean over `points` evenly spaced recalls `r` of the
    /// largest precision at a recall `>= r` (0 where none reaches it).
    func averagePrecision(points: Int) -> Double {
        guard let lastRecall = recall.last, let lastPrecision = precision.last else { return 0 }
        if points == 0 {
            var area = 0.0, recallAbove = lastRecall, envelope = lastPrecision
            for rank in stride(from: recall.count - 2, through: 0, by: -1) {
                let delta = recallAbove - recall[rank]
                recallAbove = recall[rank]
                if precision[rank] > envelope { envelope = precision[rank] }
                area += delta * envelope
            }
            return area + recallAbove * envelope
        }
        // The ranks with recall >= r are a suffix (recall never falls), so the largest precision
        // among them is a suffix maximum.
        var suffixMaximum = precision
        for rank in stride(from: suffixMaximum.count - 2, through: 0, by: -1) {
            suffixMaximum[rank] = max(suffixMaximum[rank], suffixMaximum[rank + 1])
        }
        var sum = 0.0
        for point in 0..<points {
            let level = Double(point) / Double(points - 1)
            let first = firstRank(withRecallAtLeast: level)
            if first < recall.count, suffixMaximum[first] > 0 { sum += suffixMaximum[first] }
        }
        return sum / Double(points)
    }

    /// The first rank whose recall is `>= level` (`recall.count` if none).
    private func firstRank(withRecallAtLeast level: Double) -> Int {
        var low = 0, high = recall.count
        while low < high {
            let middle = (low + high) / 2
            if recall[middle] >= level { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
