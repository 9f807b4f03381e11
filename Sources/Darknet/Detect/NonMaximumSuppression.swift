/// Darknet's `do_nms_sort`, reproduced including the order it leaves boxes in (which is the
/// order Darknet prints them).
public enum NonMaximumSuppression {
    /// Moves zero-objectness boxes to the end (Darknet's swap loop) and drops them; then, for
    /// each class in turn, stable-sorts by that class's probability (descending) and zeroes
    /// that class in every later box overlapping an earlier kept one by more than `threshold`.
    public static func apply(_ candidates: inout [BoxCandidate], classes: Int, threshold: Float) {
        var last = candidates.count - 1
        var i = 0
        while i <= last {
            if candidates[i].objectness == 0 {
                candidates.swapAt(i, last)
                last -= 1
            } else {
                i += 1
            }
        }
        candidates.removeLast(candidates.count - (last + 1))

        for k in 0..<classes {
            candidates = stableSorted(candidates, byClass: k)
            for i in candidates.indices where candidates[i].probabilities[k] != 0 {
                let a = candidates[i].box
                for j in (i + 1)..<candidates.count where a.intersectionOverUnion(candidates[j].box) > threshold {
                    candidates[j].probabilities[k] = 0
                }
            }
        }
    }

    private static func stableSorted(_ candidates: [BoxCandidate], byClass k: Int) -> [BoxCandidate] {
        candidates.enumerated()
            .sorted { lhs, rhs in
                let a = lhs.element.probabilities[k], b = rhs.element.probabilities[k]
                return a != b ? a > b : lhs.offset < rhs.offset
            }
            .map(\.element)
    }
}
