/// Turns a session's detection-head outputs into detections, the way Darknet's
/// `get_network_boxes`, `do_nms_sort` and `draw_detections` do.
public enum DetectionDecoder {
    /// Every head's candidates in layer order, mapped back to the original image.
    public static func candidates(from session: InferenceSession, geometry: LetterboxGeometry,
                                  threshold: Float) throws -> [BoxCandidate] {
        let plan = session.network.plan
        var candidates: [BoxCandidate] = []
        for layer in plan.layers {
            guard case .yolo(let yolo) = layer.spec.kind else { continue }
            try session.withOutput(ofLayer: layer.index) { output, shape in
                YoloDecoder.decode(output, shape: shape, spec: yolo,
                                   networkWidth: plan.inputShape.width, networkHeight: plan.inputShape.height,
                                   threshold: threshold, into: &candidates)
            }
        }
        YoloDecoder.correct(&candidates, geometry: geometry)
        return candidates
    }

    /// Number of classes the network's detection heads predict (Darknet reads the last head).
    public static func classCount(of plan: NetworkPlan) -> Int {
        for layer in plan.layers.reversed() {
            if case .yolo(let yolo) = layer.spec.kind { return yolo.classes }
        }
        return 0
    }

    /// One detection per (box, class) above `threshold`, in Darknet's print order.
    public static func detections(from candidates: [BoxCandidate], labels: [String], threshold: Float,
                                  imageWidth: Int, imageHeight: Int) -> [Detection] {
        var result: [Detection] = []
        for candidate in candidates {
            let rect = candidate.box.pixelRect(imageWidth: imageWidth, imageHeight: imageHeight)
            for (k, probability) in candidate.probabilities.enumerated() where probability > threshold {
                result.append(Detection(classIndex: k, label: k < labels.count ? labels[k] : String(k),
                                        confidence: probability, objectness: candidate.objectness,
                                        box: candidate.box, rect: rect))
            }
        }
        return result
    }

    /// Decoding, NMS and per-class listing in one call, after `session.forward`.
    public static func decode(_ session: InferenceSession, geometry: LetterboxGeometry, labels: [String],
                              options: DetectionOptions) throws -> [Detection] {
        var candidates = try candidates(from: session, geometry: geometry, threshold: options.threshold)
        if options.nmsThreshold > 0 {
            NonMaximumSuppression.apply(&candidates, classes: classCount(of: session.network.plan),
                                        threshold: options.nmsThreshold)
        }
        return detections(from: candidates, labels: labels, threshold: options.threshold,
                          imageWidth: geometry.imageWidth, imageHeight: geometry.imageHeight)
    }
}
