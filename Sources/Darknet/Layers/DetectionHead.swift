/// A layer whose output detections are decoded from (`[yolo]`, `[region]`): sessions always keep
/// its output, and `DetectionDecoder` asks it for box candidates.
protocol DetectionHead: Layer {
    /// Classes each box is scored for.
    var classes: Int { get }
    /// Appends the candidates of `output` (this layer's output, of `shape`) whose objectness is
    /// above `threshold`, boxes relative to the network input `networkShape`.
    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape, threshold: Float,
                into candidates: inout [BoxCandidate])
}
