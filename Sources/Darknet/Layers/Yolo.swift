/// `[yolo]`: YOLOv3 detection head.
public struct YoloSpec: Sendable, Equatable {
    /// Indices into `anchors` used by this head (`mask`).
    public var mask: [Int]
    /// All anchors as (width, height) pairs in network-input pixels (`anchors`): `num` pairs,
    /// or every pair the cfg lists if that is more.
    public var anchors: [(width: Float, height: Float)]
    /// Number of classes (`classes`, default 20).
    public var classes: Int
    /// AlexeyAB's `scale_x_y` (default 1): x and y become `s * x - (s - 1) / 2` after the logistic.
    public var scaleXY: Float = 1
    /// AlexeyAB's `new_coords` (YOLOv7 style, default off): no logistic in the layer, and
    /// `w = 4 * tw^2 * anchor_w` when decoding.
    public var newCoords: Bool = false
    /// How detections are suppressed (`nms_kind`, `beta_nms`); the last head's choice applies.
    public var nms: NMSKind = .default

    public static func == (a: YoloSpec, b: YoloSpec) -> Bool {
        a.mask == b.mask && a.classes == b.classes && a.anchors.count == b.anchors.count
            && zip(a.anchors, b.anchors).allSatisfy { $0.width == $1.width && $0.height == $1.height }
            && a.scaleXY == b.scaleXY && a.newCoords == b.newCoords && a.nms == b.nms
    }
}

/// Non-maximum suppression as AlexeyAB's `[yolo] nms_kind` selects it.
public enum NMSKind: Sendable, Equatable {
    /// `do_nms_sort`: IoU against the threshold (Darknet's only kind; AlexeyAB's `default`).
    case `default`
    /// `greedynms`: AlexeyAB's `diounms_sort` with `box_diou` (IoU minus the normalised centre
    /// distance to the power 0.6; `beta_nms` is not used by this kind).
    case greedy
    /// `diounms`: `diounms_sort` with `box_diounms`, the distance term to the power `beta`.
    case diou(beta: Float)
}

extension YoloSpec: DetectionHead, WeightlessLayer {
    static let sectionNames = ["yolo"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> YoloSpec {
        r.ignore(TrainingKeys.yolo)
        let classes = try r.int("classes", default: 20, minimum: 1)
        let num = try r.int("num", default: 1, minimum: 1)
        let values = try r.anchors(count: 2 * num)
        let anchors = stride(from: 0, to: values.count - 1, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
        let mask = try r.intList("mask") ?? Array(0..<num)
        // AlexeyAB keeps `num` anchors; a mask index past them reads past its array (undefined)
        // when decoding. The cfg's own further pairs, if it lists them, are used instead.
        if let bad = mask.first(where: { $0 < 0 || $0 >= anchors.count }) {
            throw r.error("mask", .invalidValue(value: String(bad), expected: "anchor indices in 0..<\(max(num, anchors.count))"))
        }
        let past = mask.filter { $0 >= num }
        if !past.isEmpty {
            let indices = past.map(String.init).joined(separator: ",")
            r.remark("mask", "indices \(indices) are past num=\(num) anchors (AlexeyAB decodes them from memory past its anchors); "
                + "the cfg's further anchor pairs are used")
        }
        var spec = YoloSpec(mask: mask, anchors: anchors, classes: classes)
        try spec.decodeExtensions(&r)
        return spec
    }

    /// AlexeyAB's `scale_x_y`, `new_coords`, `nms_kind`, `beta_nms`; tracking keys are accepted
    /// and ignored.
    private mutating func decodeExtensions(_ r: inout SectionReader) throws(CfgError) {
        scaleXY = try r.float("scale_x_y", default: 1)
        newCoords = try r.bool("new_coords", default: false)
        let beta = try r.float("beta_nms", default: 0.6)
        r.ignore(["nms_kind"])
        switch r.entry("nms_kind")?.value ?? "default" {
        case "default": nms = .default
        case "greedynms": nms = .greedy
        case "diounms": nms = .diou(beta: beta)
        case let other:
            throw r.error("nms_kind", .invalidValue(value: other, expected: "one of default, greedynms, diounms"))
        }
        // Object tracking by embeddings (AlexeyAB's demo): no effect on detections.
        r.ignore(["track_history_size", "sim_thresh", "dets_for_track", "dets_for_show", "track_ciou_norm", "embedding_layer"])
    }

    var needsAlexeyAB: Bool { scaleXY != 1 || newCoords || nms != .default }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let expected = mask.count * (classes + 5)
        guard context.input.channels == expected else {
            throw context.fail(.yoloChannelMismatch(expected: expected, actual: context.input.channels))
        }
        return LayerPlanning(output: context.input)
    }

    func summary(_ layer: LayerPlan) -> String {
        "yolo"
    }

    /// `[yolo]` forward as AlexeyAB's `forward_yolo_layer`: a copy of the input with the
    /// logistic on x, y, objectness and class scores (none with `new_coords`: the network's
    /// last convolution already applied it), then x and y mapped to `s * v - (s - 1) / 2`.
    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let entries = classes + 5
        AnchorPlanes.forward(layer, in: pass, entries: entries) { planes in
            for anchor in 0..<mask.count {
                if !newCoords {
                    planes.logistic(0..<2, of: anchor)
                    planes.logistic(4..<entries, of: anchor)
                }
                if scaleXY != 1 { planes.scaleXY(0..<2, of: anchor, scale: scaleXY) }
            }
        }
    }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, into candidates: inout [BoxCandidate]) {
        YoloDecoder.decode(output, shape: shape, spec: self, networkWidth: networkShape.width,
                           networkHeight: networkShape.height, threshold: threshold, into: &candidates)
    }
}
