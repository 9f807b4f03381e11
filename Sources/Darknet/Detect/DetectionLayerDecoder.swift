import Foundation

/// Box candidates from YOLOv1's `[detection]` head, as Darknet's `get_detection_detections`
/// makes them; the library's ``NonMaximumSuppression`` and ``DetectionDecoder/detections(from:labels:threshold:imageWidth:imageHeight:)``
/// then apply as to any other head.
enum DetectionLayerDecoder {
    /// Where `[detection]` boxes are expressed.
    enum Units: Sendable {
        /// As Darknet stores them: pixels of the original image (`x * imageWidth`, ...). Darknet's
        /// `draw_detections` (and so `darknet detect`) then multiplies by the image size once
        /// more, so the edges it prints are clamped to the image; printing these boxes with
        /// ``RelativeBox/pixelRect(imageWidth:imageHeight:)`` reproduces that.
        case darknetPixels
        /// Relative to the image (what the layer predicts; 0...1 for a box inside it).
        case relative
    }

    /// The candidates of a `[detection]` layer's output (after ``DetectionLayerActivation``: the
    /// previous layer's values, with `softmax=1` a softmax over each cell's classes). Layout: `side * side * classes` class scores (cell-major), then
    /// `side * side * num` confidences, then `side * side * num * 4` box values.
    ///
    /// One candidate per (cell, box) in cell-major order (`cell * num + box`), all kept:
    /// `x = (tx + column) / side`, `y = (ty + row) / side`, `w = tw^2`, `h = th^2` with `sqrt`
    /// (else `tw`, `th`), the grid spread over the whole image (Darknet ignores the letterbox
    /// here); objectness is the raw confidence, never thresholded; `prob[j] = confidence *
    /// class_j` (the cell's scores, shared by its boxes) if above `threshold`, else 0.
    static func decodeDetection(_ output: UnsafePointer<Float>, side: Int, num: Int, classes: Int, sqrt: Bool,
                                threshold: Float, imageWidth: Int, imageHeight: Int, units: Units,
                                into candidates: inout [BoxCandidate]) {
        let cells = side * side
        let (w, h): (Float, Float) = units == .darknetPixels ? (Float(imageWidth), Float(imageHeight)) : (1, 1)
        candidates.reserveCapacity(candidates.count + cells * num)
        for cell in 0..<cells {
            let row = cell / side, column = cell % side
            for n in 0..<num {
                let confidence = output[cells * classes + cell * num + n]
                let boxIndex = cells * (classes + num) + (cell * num + n) * 4
                // Darknet: float arithmetic for x, y; pow in double for w, h.
                let exponent: Double = sqrt ? 2 : 1
                let box = RelativeBox(
                    x: (output[boxIndex] + Float(column)) / Float(side) * w,
                    y: (output[boxIndex + 1] + Float(row)) / Float(side) * h,
                    width: Float(pow(Double(output[boxIndex + 2]), exponent) * Double(w)),
                    height: Float(pow(Double(output[boxIndex + 3]), exponent) * Double(h)))
                var probabilities = [Float](repeating: 0, count: classes)
                let scores = output + cell * classes
                for j in 0..<classes {
                    let probability = confidence * scores[j]
                    probabilities[j] = probability > threshold ? probability : 0
                }
                candidates.append(BoxCandidate(box: box, objectness: confidence, probabilities: probabilities))
            }
        }
    }
}
