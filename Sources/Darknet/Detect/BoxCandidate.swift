/// One decoded box before NMS: Darknet's `detection` struct.
public struct BoxCandidate: Sendable, Equatable {
    /// Relative to the network input until corrected, then to the original image.
    public var box: RelativeBox
    public var objectness: Float
    /// Per-class probability, already zeroed below the threshold.
    public var probabilities: [Float]
    /// The box's predicted uncertainties (`[Gaussian_yolo]` heads only).
    public var uncertainty: BoxUncertainty?

    /// A candidate from its parts (for running ``NonMaximumSuppression`` on boxes decoded elsewhere).
    public init(box: RelativeBox, objectness: Float, probabilities: [Float], uncertainty: BoxUncertainty? = nil) {
        self.box = box
        self.objectness = objectness
        self.probabilities = probabilities
        self.uncertainty = uncertainty
    }
}
