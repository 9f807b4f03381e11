import Foundation

/// Box candidates from YOLOv1's `[detection]` head and from a `[region]` head with a class tree
/// (YOLO9000), as Darknet's `get_detection_detections` and `get_region_detections` (tree branch)
/// make them; the library's ``NonMaximumSuppression`` and ``DetectionDecoder/detections(from:labels:threshold:imageWidth:imageHeight:)``
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

    /// The candidates of a `[region] tree=` layer's output (after ``RegionTreeActivation``),
    /// relative to the network input (correct them for the letterbox as other region boxes).
    ///
    /// One candidate per (anchor, cell), anchor-major (`anchor * cells + cell`), all kept:
    /// the region box (`x = (column + tx) / width`, `w = exp(tw) * anchorW / width`, ...);
    /// objectness `scale` if above `threshold`, else 0 (`scale` is 1 with `background`). Then,
    /// as Darknet: the class values become path probabilities in `output` itself
    /// (``ClassTree/multiplyAlongPaths(_:stride:onlyLeaves:)``), the tree is walked for the top
    /// class with `hierThreshold` (``ClassTree/topPrediction(_:stride:threshold:)``), and the
    /// candidate carries only that class, with probability `scale` (not multiplied by the
    /// class's) if `scale > threshold`, else 0.
    static func decodeRegionTree(_ output: UnsafeMutablePointer<Float>, width: Int, height: Int, anchors: Int,
                                 coords: Int, classes: Int, background: Bool, anchorSizes: [(width: Float, height: Float)],
                                 tree: ClassTree, threshold: Float, hierThreshold: Float,
                                 into candidates: inout [BoxCandidate]) {
        precondition(tree.count == classes, "the tree has \(tree.count) classes, the layer \(classes)")
        let cells = width * height
        let entries = coords + 1 + classes
        let first = candidates.count
        candidates.append(contentsOf: repeatElement(
            BoxCandidate(box: RelativeBox(x: 0, y: 0, width: 0, height: 0), objectness: 0, probabilities: []),
            count: anchors * cells))
        for cell in 0..<cells {
            let row = cell / width, column = cell % width
            for n in 0..<anchors {
                let base = output + n * entries * cells + cell
                let box = RelativeBox(
                    x: (Float(column) + base[0]) / Float(width),
                    y: (Float(row) + base[cells]) / Float(height),
                    width: Float(exp(Double(base[2 * cells])) * Double(anchorSizes[n].width) / Double(width)),
                    height: Float(exp(Double(base[3 * cells])) * Double(anchorSizes[n].height) / Double(height)))
                let scale: Float = background ? 1 : base[coords * cells]
                let values = base + (coords + (background ? 0 : 1)) * cells
                tree.multiplyAlongPaths(values, stride: cells, onlyLeaves: false)
                let top = tree.topPrediction(values, stride: cells, threshold: hierThreshold)
                var probabilities = [Float](repeating: 0, count: classes)
                probabilities[top] = scale > threshold ? scale : 0
                candidates[first + n * cells + cell] = BoxCandidate(box: box, objectness: scale > threshold ? scale : 0,
                                                                    probabilities: probabilities)
            }
        }
    }
}
