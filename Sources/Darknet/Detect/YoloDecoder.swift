import Foundation

/// Turns a `[yolo]` layer's output into box candidates, as Darknet's `get_yolo_detections`.
enum YoloDecoder {
    /// Appends a candidate for every (cell, anchor) whose objectness exceeds `threshold`;
    /// cells row-major, anchors inner. Boxes are relative to the network input.
    static func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, spec: YoloSpec,
                       networkWidth: Int, networkHeight: Int, threshold: Float,
                       into candidates: inout [BoxCandidate]) {
        let plane = shape.planeSize
        let entries = spec.classes + 5
        for cell in 0..<plane {
            let row = cell / shape.width, column = cell % shape.width
            for (n, anchorIndex) in spec.mask.enumerated() {
                let base = n * entries * plane + cell
                let objectness = output[base + 4 * plane]
                guard objectness > threshold else { continue }
                let anchor = spec.anchors[anchorIndex]
                let tw = output[base + 2 * plane], th = output[base + 3 * plane]
                let box = RelativeBox(
                    x: (Float(column) + output[base]) / Float(shape.width),
                    y: (Float(row) + output[base + plane]) / Float(shape.height),
                    width: spec.newCoords ? Self.squaredSize(tw, anchor: anchor.width, network: networkWidth)
                        : Float(exp(Double(tw)) * Double(anchor.width) / Double(networkWidth)),
                    height: spec.newCoords ? Self.squaredSize(th, anchor: anchor.height, network: networkHeight)
                        : Float(exp(Double(th)) * Double(anchor.height) / Double(networkHeight)))
                var probabilities = [Float](repeating: 0, count: spec.classes)
                for j in 0..<spec.classes {
                    let probability = objectness * output[base + (5 + j) * plane]
                    probabilities[j] = probability > threshold ? probability : 0
                }
                candidates.append(BoxCandidate(box: box, objectness: objectness, probabilities: probabilities))
            }
        }
    }

    /// Maps boxes from the network input back to the original image, undoing the letterbox
    /// (Darknet's `correct_yolo_boxes`, with its mixed float/double arithmetic).
    static func correct(_ candidates: inout [BoxCandidate], geometry g: LetterboxGeometry) {
        let netW = g.networkWidth, netH = g.networkHeight
        let newW = g.resizedWidth, newH = g.resizedHeight
        for i in candidates.indices {
            var b = candidates[i].box
            b.x = Float((Double(b.x) - Double(netW - newW) / 2 / Double(netW)) / Double(Float(newW) / Float(netW)))
            b.y = Float((Double(b.y) - Double(netH - newH) / 2 / Double(netH)) / Double(Float(newH) / Float(netH)))
            b.width *= Float(netW) / Float(newW)
            b.height *= Float(netH) / Float(newH)
            candidates[i].box = b
        }
    }
}

extension YoloDecoder {
    /// AlexeyAB's `new_coords` box size: `t * t * 4 * anchor / network` (float, in C's order).
    static func squaredSize(_ t: Float, anchor: Float, network: Int) -> Float {
        t * t * 4 * anchor / Float(network)
    }
}
