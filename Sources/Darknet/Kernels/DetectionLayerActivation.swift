/// Darknet's `forward_detection_layer` at inference (YOLOv1's `[detection]`): a copy of the
/// input and, with `softmax=1`, a softmax (temperature 1) over the `classes` scores of each of the
/// `side * side` cells, which come first in the layer's layout; confidences and boxes stay raw.
enum DetectionLayerActivation {
    /// `input` and `output` hold `side * side * (classes + num * 5)` values and may be the same buffer.
    static func forward(_ input: UnsafePointer<Float>, side: Int, num: Int, classes: Int, softmax applySoftmax: Bool,
                        into output: UnsafeMutablePointer<Float>) {
        let count = side * side * (classes + num * 5)
        if UnsafePointer(output) != input { output.update(from: input, count: count) }
        guard applySoftmax else { return }
        for cell in 0..<(side * side) {
            let scores = output + cell * classes
            softmax(scores, count: classes, temperature: 1, into: scores)
        }
    }
}
