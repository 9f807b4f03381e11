import Darknet
import Foundation

extension PlanarImage {
    /// A copy with `predictions` drawn the way `darknet classifier demo` draws them: one line
    /// a class, `41.2%: label`, black on a white strip at the top left. With `lh` = 3% of the
    /// height, the strips start `lh` from the left edge and the first one ends `3 lh` from
    /// the top, the next ones `2 lh` lower each. Text scale follows the image height, as in
    /// `annotated(with:classCount:)`.
    public func annotated(with predictions: [Classification]) -> PlanarImage {
        var out = self
        let lineHeight = max(1, Int(Float(height) * 0.03))
        let scale = labelScale
        var bottom = 3 * lineHeight
        for prediction in predictions {
            let text = Self.demoLine(prediction)
            let stripHeight = BitmapFont.size(of: text, scale: scale).height + 2 * scale
            out.drawLabel(text, x: lineHeight, y: max(0, bottom - stripHeight), color: .white, scale: scale)
            bottom += 2 * lineHeight
        }
        return out
    }

    /// `41.2%: label`, as the demo prints a prediction on the picture.
    static func demoLine(_ prediction: Classification) -> String {
        String(format: "%.1f%%: %@", Double(prediction.probability) * 100, prediction.label)
    }
}
