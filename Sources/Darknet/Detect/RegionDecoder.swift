import Foundation

/// Turns a `[region]` layer's output into box candidates, as Darknet's
/// `get_region_detections` (without class hierarchies).
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
        let lw = Float(shape.width), lh = Float(shape.height)
        candidates.reserveCapacity(candidates.count + spec.num * plane)
        for n in 0..<spec.num {
            let anchor = spec.anchor(n)
            for cell in 0..<plane {
                let row = cell / shape.width, column = cell % shape.width
                let base = n * spec.entries * plane + cell
                // Darknet: (i + x) / w in float, exp in double times the float anchor, / w.
                let box = RelativeBox(
                    x: (Float(column) + output[base]) / lw,
                    y: (Float(row) + output[base + plane]) / lh,
                    width: Float(exp(Double(output[base + 2 * plane])) * Double(anchor.width) / Double(shape.width)),
                    height: Float(exp(Double(output[base + 3 * plane])) * Double(anchor.height) / Double(shape.height)))
                let scale = output[base + spec.coords * plane]
                let objectness: Float = scale > threshold ? scale : 0
                var probabilities = [Float](repeating: 0, count: spec.classes)
                if objectness != 0 {
                    let classBase = base + (spec.coords + 1) * plane
                    for j in 0..<spec.classes {
                        let probability = scale * output[classBase + j * plane]
                        probabilities[j] = probability > threshold ? probability : 0
                    }
                }
                candidates.append(BoxCandidate(box: box, objectness: objectness, probabilities: probabilities))
            }
        }
    }
}
