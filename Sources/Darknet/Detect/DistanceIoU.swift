import Foundation

extension RelativeBox {
    /// AlexeyAB's `box_iou`: like Darknet's, but 0 when the intersection or the union is 0.
    public func alexeyABIntersectionOverUnion(_ other: RelativeBox) -> Float {
        let (intersection, union) = intersectionAndUnion(other)
        if intersection == 0 || union == 0 { return 0 }
        return intersection / union
    }

    /// AlexeyAB's `box_diounms` (and, with `beta` 0.6, `box_diou`): IoU minus
    /// `(d² / c²)^beta`, where `d` is the distance between the centres and `c` the diagonal of
    /// the smallest box enclosing both; plain IoU when that box is empty. Float arithmetic as
    /// in C, the power in double.
    public func distanceIntersectionOverUnion(_ other: RelativeBox, beta: Float) -> Float {
        let top = min(y - height / 2, other.y - other.height / 2)
        let bottom = max(y + height / 2, other.y + other.height / 2)
        let left = min(x - width / 2, other.x - other.width / 2)
        let right = max(x + width / 2, other.x + other.width / 2)
        let w = right - left, h = bottom - top
        let c = w * w + h * h
        let iou = alexeyABIntersectionOverUnion(other)
        if c == 0 { return iou }
        let d = (x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)
        let term = Float(pow(Double(d / c), Double(beta)))
        return iou - term
    }
}

extension NMSKind {
    /// Whether a box `b` later in the order is suppressed by the kept box `a` at `threshold`.
    func suppresses(_ a: RelativeBox, _ b: RelativeBox, threshold: Float) -> Bool {
        switch self {
        case .default: a.intersectionOverUnion(b) > threshold
        case .greedy: a.distanceIntersectionOverUnion(b, beta: 0.6) > threshold
        case .diou(let beta): a.distanceIntersectionOverUnion(b, beta: beta) > threshold
        }
    }
}
