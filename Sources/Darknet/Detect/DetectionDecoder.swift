/// Turns a session's detection-head outputs into detections, the way Darknet's
/// `get_network_boxes`, `do_nms_sort` and `draw_detections` do.
public enum DetectionDecoder {
    /// Every head's candidates in layer order, mapped back to the original image. `hierThreshold`
    /// applies to heads with a class hierarchy (YOLO9000's `[region] tree=`),
    /// `detectionLayerBoxes` to YOLOv1's `[detection]` heads.
    public static func candidates(from session: InferenceSession, geometry: LetterboxGeometry,
                                  threshold: Float, hierThreshold: Float = 0.5,
                                  detectionLayerBoxes: DetectionLayerBoxes = .darknetDetect) throws -> [BoxCandidate] {
        let plan = session.network.plan
        var candidates: [BoxCandidate] = []
        for layer in plan.layers {
            guard let head = layer.spec.kind.layer as? any DetectionHead else { continue }
            var decoded: [BoxCandidate] = []
            try session.withOutput(ofLayer: layer.index) { output, shape in
                head.decode(output, shape: shape, networkShape: plan.inputShape, geometry: geometry, threshold: threshold,
                            hierThreshold: hierThreshold, detectionLayerBoxes: detectionLayerBoxes, into: &decoded)
            }
            // correct_region_boxes and correct_yolo_boxes do the same arithmetic.
            if !head.boxesAreInImagePixels(detectionLayerBoxes) { YoloDecoder.correct(&decoded, geometry: geometry) }
            candidates += decoded
        }
        return candidates
    }

    /// Number of classes the network's detection heads predict (Darknet reads the last head).
    public static func classCount(of plan: NetworkPlan) -> Int {
        for layer in plan.layers.reversed() {
            if let classes = layer.spec.kind.detectionClasses { return classes }
        }
        return 0
    }

    /// The class count every detection head shares.
    /// - Throws: `DetectorError.noDetectionHead`, or `.classCountMismatch` if heads differ
    ///   (Darknet sizes its boxes by the last head and overruns or truncates the others).
    package static func checkedClassCount(of plan: NetworkPlan) throws(DetectorError) -> Int {
        var heads: [(layer: Int, line: Int, classes: Int)] = []
        for layer in plan.layers {
            if let classes = layer.spec.kind.detectionClasses { heads.append((layer.index, layer.spec.line, classes)) }
        }
        guard let last = heads.last else { throw .noDetectionHead(cfg: plan.file) }
        if let odd = heads.first(where: { $0.classes != last.classes }) {
            throw .classCountMismatch(cfg: plan.file, line: odd.line, layer: odd.layer, classes: odd.classes,
                                      expected: last.classes)
        }
        return last.classes
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
                                        box: candidate.box, rect: rect, uncertainty: candidate.uncertainty))
            }
        }
        return result
    }

    /// Decoding, NMS and per-class listing in one call, after `session.forward`.
    public static func decode(_ session: InferenceSession, geometry: LetterboxGeometry, labels: [String],
                              options: DetectionOptions) throws -> [Detection] {
        try options.validate()
        let classes = try checkedClassCount(of: session.network.plan)
        var candidates = try candidates(from: session, geometry: geometry, threshold: options.threshold,
                                        hierThreshold: options.hierThreshold, detectionLayerBoxes: options.detectionLayerBoxes)
        if options.nmsThreshold > 0 {
            NonMaximumSuppression.apply(&candidates, classes: classes,
                                        threshold: options.nmsThreshold, kind: nmsKind(of: session.network.plan))
        }
        return options.shape(detections(from: candidates, labels: labels, threshold: options.threshold,
                                        imageWidth: geometry.imageWidth, imageHeight: geometry.imageHeight))
    }
}

extension DetectionDecoder {
    /// The suppression the network asks for: AlexeyAB reads `nms_kind` from the network's last
    /// layer (the last `[yolo]` or `[Gaussian_yolo]` here); `.default` without one.
    public static func nmsKind(of plan: NetworkPlan) -> NMSKind {
        for layer in plan.layers.reversed() {
            if case .yolo(let yolo) = layer.spec.kind { return yolo.nms }
            if case .gaussianYolo(let head) = layer.spec.kind { return head.nms }
        }
        return .default
    }
}
