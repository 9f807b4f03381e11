/// One decoded box before NMS: Darknet's `detection` struct.
public struct BoxCandidate: Sendable, Equatable {
    /// Relative to the network input until corrected, then to the original image.
    public var box: RelativeBox
    public var objectness: Float
    /// Per-class probability, already zeroed below the threshold.
    public var probabilities: [Float]

    /// A candidate from its parts (for running ``NonMaximumSuppression`` on boxes decoded elsewhere).
    public init(box: RelativeBox, objectness: Float, probabilities: [Float]) {
        self.box = box
        self.objectness = objectness
        self.probabilities = probabilities
    }
}
