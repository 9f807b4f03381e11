import Foundation

/// Turns a `[region]` layer's output into box candidates, as Darknet's `get_region_detections`.
enum RegionDecoder {
    /// Appends one candidate for every (anchor, cell), anchor-major (`anchor * w * h + cell`),
    /// whether or not it passes: `x = (col + σx) / w`, `y = (row + σy) / h`,
    /// `w = exp(tw) * anchorW / w`, `h = exp(th) * anchorH / h` (anchors in grid cells);
    /// objectness is kept only above `threshold` (else 0, which NMS drops) and, when kept,
    /// `prob[j] = objectness * class_j` if that exceeds `threshold`, else 0.
    /// Boxes are relative to the network input.
    static func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, spec: RegionSpec,
                       threshold: Float, into candidates: inout [BoxCandidate]) {
        let plane = shape.planeSize
        forEachPrediction(output, shape: shape, spec: spec, into: &candidates) { box, scale, classBase in
            let objectness: Float = scale > threshold ? scale : 0
            var probabilities = [Float](repeating: 0, count: spec.classes)
            if objectness != 0 {
                for j in 0..<spec.classes {
                    let probability = scale * output[classBase + j * plane]
                    probabilities[j] = probability > threshold ? probability : 0
                }
            }
            return BoxCandidate(box: box, objectness: objectness, probabilities: probabilities)
        }
    }

    /// The candidates of a `[region] tree=` layer (YOLO9000), as Darknet's `get_region_detections`
    /// makes them with a class tree. One candidate per (anchor, cell), in the order above, all
    /// kept: the same box; objectness `scale` if above `threshold`, else 0. The cell's class
    /// values become path probabilities (``ClassTree/multiplyAlongPaths(_:stride:onlyLeaves:)``,
    /// on a copy: the layer's output is left as it is), the tree is walked down while they stay
    /// above `hierThreshold` (``ClassTree/topPrediction(_:stride:threshold:)``), and the candidate
    /// carries only the class found, with probability `scale` itself (Darknet does not multiply
    /// by the class's) if `scale > threshold`.
    static func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, spec: RegionSpec, tree: ClassTree,
                       threshold: Float, hierThreshold: Float, into candidates: inout [BoxCandidate]) {
        precondition(tree.count == spec.classes, "the tree has \(tree.count) classes, the layer \(spec.classes)")
        let plane = shape.planeSize
        var values = [Float](repeating: 0, count: spec.classes)
        forEachPrediction(output, shape: shape, spec: spec, into: &candidates) { box, scale, classBase in
            for j in 0..<spec.classes { values[j] = output[classBase + j * plane] }
            let top = values.withUnsafeMutableBufferPointer { buffer in
                tree.multiplyAlongPaths(buffer.baseAddress!, stride: 1, onlyLeaves: false)
                return tree.topPrediction(buffer.baseAddress!, stride: 1, threshold: hierThreshold)
            }
            var probabilities = [Float](repeating: 0, count: spec.classes)
            probabilities[top] = scale > threshold ? scale : 0
            return BoxCandidate(box: box, objectness: scale > threshold ? scale : 0, probabilities: probabilities)
        }
    }

    /// Appends `candidate(box, scale, classBase)` for every (anchor, cell), anchor-major
    /// (`anchor * w * h + cell`): the cell's box for that anchor, its raw objectness `scale`, and
    /// where its first class score stands in `output` (the others follow a plane apart).
    private static func forEachPrediction(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, spec: RegionSpec,
                                          into candidates: inout [BoxCandidate],
                                          _ candidate: (_ box: RelativeBox, _ scale: Float, _ classBase: Int) -> BoxCandidate) {
        let plane = shape.planeSize
        candidates.reserveCapacity(candidates.count + spec.num * plane)
        for n in 0..<spec.num {
            for cell in 0..<plane {
                let base = n * spec.entries * plane + cell
                let box = self.box(output, shape: shape, anchor: spec.anchor(n), cell: cell, base: base)
                candidates.append(candidate(box, output[base + spec.coords * plane], base + (spec.coords + 1) * plane))
            }
        }
    }

    /// The box of the anchor whose x entry is `output[base]`, in grid `cell`. Darknet's arithmetic:
    /// `(i + x) / w` in float, `exp` in double times the float anchor, `/ w`.
    private static func box(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, anchor: (width: Float, height: Float),
                            cell: Int, base: Int) -> RelativeBox {
        let plane = shape.planeSize
        let row = cell / shape.width, column = cell % shape.width
        return RelativeBox(
            x: (Float(column) + output[base]) / Float(shape.width),
            y: (Float(row) + output[base + plane]) / Float(shape.height),
            width: Float(exp(Double(output[base + 2 * plane])) * Double(anchor.width) / Double(shape.width)),
            height: Float(exp(Double(output[base + 3 * plane])) * Double(anchor.height) / Double(shape.height)))
    }
}
