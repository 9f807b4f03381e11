/// A layer whose output detections are decoded from (`[yolo]`, `[region]`, `[detection]`):
/// sessions always keep its output, and `DetectionDecoder` asks it for box candidates.
protocol DetectionHead: Layer {
    /// Classes each box is scored for.
    var classes: Int { get }
    /// Whether `decode` gives boxes in pixels of the original image (YOLOv1 as `darknet detect`
    /// has them) instead of relative to the network input, which the decoder then maps through
    /// the letterbox.
    func boxesAreInImagePixels(_ detectionLayerBoxes: DetectionLayerBoxes) -> Bool
    /// Appends the candidates of `output` (this layer's output, of `shape`) whose objectness is
    /// above `threshold`, for an image letterboxed into `networkShape` by `geometry`.
    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, into candidates: inout [BoxCandidate])
    /// `decode` for a head with a class hierarchy, which walks it down while the path
    /// probability stays above `hierThreshold` (Darknet's `hier_thresh`), or a `[detection]` head,
    /// whose boxes are as `detectionLayerBoxes` says; the other heads ignore both.
    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, hierThreshold: Float,
                detectionLayerBoxes: DetectionLayerBoxes, into candidates: inout [BoxCandidate])
}

extension DetectionHead {
    func boxesAreInImagePixels(_ detectionLayerBoxes: DetectionLayerBoxes) -> Bool { false }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, hierThreshold: Float,
                detectionLayerBoxes: DetectionLayerBoxes, into candidates: inout [BoxCandidate]) {
        decode(output, shape: shape, networkShape: networkShape, geometry: geometry, threshold: threshold, into: &candidates)
    }
}
