import Darknet

/// One detection to draw: a pixel box and its label.
public struct BoxAnnotation: Sendable, Equatable {
    /// Text drawn above the box (for example the class name).
    public var label: String
    /// Class index; picks the colour with ``RGBColor/forClass(_:of:)``.
    public var classIndex: Int
    /// Box edges in pixels, inclusive (as Darknet's `draw_detections` computes them).
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int

    public init(label: String, classIndex: Int, left: Int, top: Int, right: Int, bottom: Int) {
        self.label = label
        self.classIndex = classIndex
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
}

extension PlanarImage {
    /// A copy with every box drawn the way `darknet detect` draws predictions: an outline
    /// `max(1, Int(height * 0.006))` pixels wide in the class colour, and the label on a
    /// strip of the same colour sitting on the box's top edge (inside the box when there is
    /// no room above). Text scale follows the image height (about 3% of it).
    /// - Parameter classCount: number of classes of the model (80 for COCO); sets the
    ///   colours, as in Darknet.
    public func annotated(with boxes: [BoxAnnotation], classCount: Int = 80) -> PlanarImage {
        var out = self
        let thickness = max(1, Int(Float(height) * 0.006))
        let scale = labelScale
        for box in boxes {
            let color = RGBColor.forClass(box.classIndex, of: classCount)
            out.drawBox(left: box.left, top: box.top, right: box.right, bottom: box.bottom,
                        color: color, thickness: thickness)
        }
        // Labels last, so no box outline crosses a label.
        for box in boxes where !box.label.isEmpty {
            let color = RGBColor.forClass(box.classIndex, of: classCount)
            let labelHeight = BitmapFont.size(of: box.label, scale: scale).height + 2 * scale
            let top = min(box.top, box.bottom)
            let y = top - labelHeight >= 0 ? top - labelHeight : top + thickness
            out.drawLabel(box.label, x: min(box.left, box.right), y: y, color: color, scale: scale)
        }
        return out
    }
}

extension PlanarImage {
    /// The text scale of drawn labels: about 3% of the image height, as Darknet sizes its labels.
    var labelScale: Int { max(1, Int((Float(height) * 0.03 / Float(BitmapFont.lineHeight)).rounded())) }
}
