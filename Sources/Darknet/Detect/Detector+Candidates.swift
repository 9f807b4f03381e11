extension Detector {
    /// Every box the detection heads decode for `image`, before NMS: Darknet's
    /// `get_network_boxes` (objectness and class probabilities above `threshold`, boxes
    /// relative to the image), for callers that suppress or score boxes their own way
    /// (`darknet detector recall` suppresses by objectness, `do_nms_obj`).
    /// - Parameters:
    ///   - image: the image; boxes come out relative to it.
    ///   - threshold: the smallest objectness times class probability kept (Darknet's `thresh`).
    ///   - hierThreshold: a class tree's threshold for descending to a child (`hier_thresh`).
    ///   - letterbox: letterbox the image (Darknet's `detect`), or stretch it to the
    ///     network's size (AlexeyAB's default, and `recall`'s).
    public func candidates(_ image: PlanarImage, threshold: Float, hierThreshold: Float = 0.5,
                           letterbox: Bool = true) throws -> [BoxCandidate] {
        let (input, geometry) = try prepare(image, letterbox: letterbox)
        return try runner.run { pooled in
            try pooled.session.forward(input.pixels)
            return try DetectionDecoder.candidates(from: pooled.session, geometry: geometry, threshold: threshold,
                                                   hierThreshold: hierThreshold)
        }
    }
}
