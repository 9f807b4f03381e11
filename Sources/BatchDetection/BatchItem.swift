import Darknet

/// One image of a batch, in input order: its detections, or why it failed.
public struct BatchItem: Sendable {
    /// Position in the input, from 0 (Darknet's `frame_id` is `index + 1`).
    public let index: Int
    /// The path as given or as found in a directory.
    public let path: String
    /// The decoded image and its detections (Darknet's order), or the error (unreadable or
    /// corrupt file, wrong channel count, ...).
    public let result: Result<BatchDetections, any Error>

    /// An item, e.g. to write an output file for results found some other way.
    public init(index: Int, path: String, result: Result<BatchDetections, any Error>) {
        self.index = index
        self.path = path
        self.result = result
    }
}

/// What detection found in one image.
public struct BatchDetections: Sendable {
    /// The image as decoded (its size, and the pixels to annotate).
    public let image: PlanarImage
    /// What `Detector.detect(image, options:)` returns for it.
    public let detections: [Detection]
    /// Wall time of the detection (forward pass and decoding) in seconds: what Darknet's
    /// "Predicted in" reports.
    public let seconds: Double

    /// Wraps one image's results.
    public init(image: PlanarImage, detections: [Detection], seconds: Double) {
        self.image = image
        self.detections = detections
        self.seconds = seconds
    }
}
