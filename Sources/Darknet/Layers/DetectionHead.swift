/// A layer whose output detections are decoded from (`[yolo]`, `[region]`, `[detection]`):
/// sessions always keep its output, and `DetectionDecoder` asks it for box candidates.
protocol DetectionHead: Layer {
    /// Classes each box is scored for.
    var classes: Int { get }
    /// Whether `decode` gives boxes in pixels of the original image (YOLOv1) instead of relative
    /// to the network input, which the decoder then maps through the letterbox.
    var boxesAreInImagePixels: Bool { get }
    /// Appends the candidates of `output` (this layer's output, of `shape`) whose objectness is
    /// above `threshold`, for an image letterboxed into `networkShape` by `geometry`.
    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, into candidates: inout [BoxCandidate])
    /// `decode` for a head with a class hierarchy, which walks it down while the path
    /// probability stays above `hierThreshold` (Darknet's `hier_thresh`); the other heads ignore it.
    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, hierThreshold: Float, into candidates: inout [BoxCandidate])
}

extension DetectionHead {
    var boxesAreInImagePixels: Bool { false }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, hierThreshold: Float, into candidates: inout [BoxCandidate]) {
        decode(output, shape: shape, networkShape: networkShape, geometry: geometry, threshold: threshold, into: &candidates)
    }
}
