extension Detector {
    /// What `detect(headInputs:imageWidth:imageHeight:options:)` takes, one shape per detection
    /// head in layer order: the head's input, the output of the layer before it (for YOLOv3-tiny,
    /// the 255-channel convolutions at 13 x 13 and 26 x 26).
    public var headInputShapes: [TensorShape] { network.plan.detectionHeads.map(\.inputShape) }

    /// Detections from the inputs of the network's detection heads, computed by another runtime
    /// (Core ML, ONNX Runtime, TensorFlow Lite) that ran this network up to its heads on an image
    /// letterboxed, or stretched, into the network input. The heads' own activations, the
    /// decoding, the suppression and the listing are this library's, so the same tensors give the
    /// same detections as `detect(_:options:)`.
    /// - Parameters:
    ///   - headInputs: one planar CHW tensor per head, in layer order (`headInputShapes`).
    ///   - imageWidth: the original image's width in pixels; boxes are mapped back to it through
    ///     the letterbox (`options.letterbox`) or the stretch.
    ///   - imageHeight: the original image's height.
    ///   - options: thresholds, suppression and listing, as for an image; no tiling.
    /// - Throws: `ArgumentError` for invalid options, a tiling (the tensors come from one network
    ///   input), a size below 1, or head inputs that are not one per head of `headInputShapes`.
    public func detect(headInputs: [[Float]], imageWidth: Int, imageHeight: Int,
                       options: DetectionOptions = DetectionOptions()) throws -> [Detection] {
        try options.validate()
        try ArgumentError.require(options.tiling == nil, "DetectionOptions.tiling", "set",
                                  expected: "nil: head inputs come from one network input")
        try ArgumentError.require("imageWidth", imageWidth, atLeast: 1)
        try ArgumentError.require("imageHeight", imageHeight, atLeast: 1)
        let shape = network.inputShape
        let geometry = LetterboxGeometry(imageWidth: imageWidth, imageHeight: imageHeight, networkWidth: shape.width,
                                         networkHeight: shape.height, letterbox: options.letterbox)
        return try runner.run { pooled in
            try pooled.session.forwardHeads(headInputs)
            return try DetectionDecoder.decode(pooled.session, geometry: geometry, labels: labels, options: options)
        }
    }
}
