/// Darknet's two uses of a class tree's softmax output (`hierarchy_predictions`,
/// `hierarchy_top_prediction`), over values `values[class * stride]`.
extension ClassTree {
    /// Turns per-group probabilities into path probabilities, in place: in class order, each
    /// class's value is multiplied by its parent's (already multiplied) value. With
    /// `onlyLeaves` (as `darknet classifier predict` asks) every class with children is then
    /// set to 0.
    func multiplyAlongPaths(_ values: UnsafeMutablePointer<Float>, stride: Int, onlyLeaves: Bool) {
        for j in 0..<count where parents[j] >= 0 {
            values[j * stride] *= values[parents[j] * stride]
        }
        if onlyLeaves {
            for j in 0..<count where !isLeaf(j) { values[j * stride] = 0 }
        }
    }

    /// The deepest confident class over path probabilities: from group 0, take the group's
    /// largest value `v` (the first on ties; class 0 if none is positive, as Darknet's `max_i`
    /// starts there) while `p * v > threshold`, with `p` the product of the values taken so
    /// far (Darknet multiplies path probabilities again here), descending into its children and
    /// stopping at a leaf. When it stops below a group other than the first, the answer is
    /// that group's parent class; in group 0 it is the largest class.
    func topPrediction(_ values: UnsafePointer<Float>, stride: Int, threshold: Float) -> Int {
        var p: Float = 1
        var group = 0
        while true {
            var largest: Float = 0
            var best = 0
            for index in groups[group] where values[index * stride] > largest {
                largest = values[index * stride]
                best = index
            }
            if p * largest > threshold {
                p *= largest
                group = childGroup[best]
                if group < 0 { return best }
            } else if group == 0 {
                return best
            } else {
                return parents[groups[group].lowerBound]
            }
        }
    }
}
