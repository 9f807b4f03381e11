/// A box as its four edges in relative coordinates, in double precision: what `BoxSmoothing`
/// averages.
struct BoxEdges: Sendable, Equatable {
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double

    init(left: Double, top: Double, right: Double, bottom: Double) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// The edges of `box`: centre minus and plus half the size.
    init(_ box: RelativeBox) {
        let x = Double(box.x), y = Double(box.y), halfWidth = Double(box.width) / 2, halfHeight = Double(box.height) / 2
        self.init(left: x - halfWidth, top: y - halfHeight, right: x + halfWidth, bottom: y + halfHeight)
    }

    /// The centre-and-size box, rounded to float.
    var box: RelativeBox {
        RelativeBox(x: Float((left + right) / 2), y: Float((top + bottom) / 2),
                    width: Float(right - left), height: Float(bottom - top))
    }

    static func + (a: BoxEdges, b: BoxEdges) -> BoxEdges {
        BoxEdges(left: a.left + b.left, top: a.top + b.top, right: a.right + b.right, bottom: a.bottom + b.bottom)
    }

    static func * (scale: Double, a: BoxEdges) -> BoxEdges {
        BoxEdges(left: scale * a.left, top: scale * a.top, right: scale * a.right, bottom: scale * a.bottom)
    }

    static func / (a: BoxEdges, divisor: Double) -> BoxEdges {
        BoxEdges(left: a.left / divisor, top: a.top / divisor, right: a.right / divisor, bottom: a.bottom / divisor)
    }
}
