/// Darknet's `do_nms_sort`, reproduced including the order it leaves boxes in (which is the
/// order Darknet prints them).
public enum NonMaximumSuppression {
    /// Moves zero-objectness boxes to the end (Darknet's swap loop) and drops them; then, for
    /// each class in turn, stable-sorts by that class's probability (descending) and zeroes
    /// that class in every later box overlapping an earlier kept one by more than `threshold`.
    ///
    /// Probabilities are never negative, so a stable sort puts the non-zero ones first (in
    /// descending order, ties in their previous order) and leaves the zeros in their previous
    /// order: only the non-zero entries of a class are sorted and compared. Cost per class is
    /// `O(n + m log m + m²)` for `m` non-zero entries.
    ///
    /// `kind` selects the overlap measure: IoU (`do_nms_sort`) or AlexeyAB's distance-IoU
    /// variants (`diounms_sort`, which has the same structure).
    public static func apply(_ candidates: inout [BoxCandidate], classes: Int, threshold: Float, kind: NMSKind = .default) {
        removeZeroObjectness(&candidates)

        var order = Array(candidates.indices)  // position -> candidate
        var nonZero: [Int] = []                 // positions with a non-zero probability
        var zero: [Int] = []
        var reordered = [Int](repeating: 0, count: order.count)
        for k in 0..<classes {
            nonZero.removeAll(keepingCapacity: true)
            zero.removeAll(keepingCapacity: true)
            for position in order.indices {
                if candidates[order[position]].probabilities[k] != 0 { nonZero.append(position) } else { zero.append(position) }
            }
            guard !nonZero.isEmpty else { continue }  // all equal: the stable sort changes nothing
            nonZero.sort { a, b in
                let pa = candidates[order[a]].probabilities[k], pb = candidates[order[b]].probabilities[k]
                return pa != pb ? pa > pb : a < b
            }
            for (to, from) in (nonZero + zero).enumerated() { reordered[to] = order[from] }
            swap(&order, &reordered)
            // The non-zero entries are now the first nonZero.count positions.
            for a in 0..<nonZero.count where candidates[order[a]].probabilities[k] != 0 {
                let box = candidates[order[a]].box
                for b in (a + 1)..<nonZero.count where kind.suppresses(box, candidates[order[b]].box, threshold: threshold) {
                    candidates[order[b]].probabilities[k] = 0
                }
            }
        }
        candidates = order.map { candidates[$0] }
    }

    /// Darknet's first loop of `do_nms_sort` and `do_nms_obj`: each box with objectness 0 is
    /// swapped with the last box still in play, which reorders the others; the zeros are dropped.
    package static func removeZeroObjectness(_ candidates: inout [BoxCandidate]) {
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
    }
}
