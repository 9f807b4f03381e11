/// Decoding of the keys and sections AlexeyAB's Darknet fork adds (YOLOv4, YOLOv7):
/// per-axis strides, dilation, weighted-shortcut refusals, the `[yolo]` extensions,
/// `[scale_channels]` and `[sam]`. Semantics follow its `parser.c`.
extension NetworkSpec {
    /// `stride_x` / `stride_y`, each defaulting to `stride` (which defaults to 1).
    static func decodeStrides(_ r: inout SectionReader) throws(CfgError) -> (x: Int, y: Int) {
        let stride = try r.int("stride", default: 1, minimum: 1)
        return (try r.int("stride_x", default: stride, minimum: 1), try r.int("stride_y", default: stride, minimum: 1))
    }

    /// AlexeyAB convolution keys: accepted where they do not change inference, refused where
    /// they do and are not implemented. Returns `cbn` (cross-iteration batch norm), which
    /// infers exactly like `batch_normalize=1` (AlexeyAB sets batch_normalize=2 for it).
    static func decodeConvolutionExtensions(_ r: inout SectionReader) throws(CfgError) -> Bool {
        for (key, feature) in [("sway", "deformable (sway) convolution"), ("rotate", "deformable (rotate) convolution"),
                               ("stretch", "deformable (stretch) convolution"),
                               ("stretch_sway", "deformable (stretch_sway) convolution"),
                               ("coordconv", "coordconv"), ("bin_output", "binary output")] {
            try r.requireNeutral(key, 0, feature: feature)
        }
        // Only read with sway/rotate/stretch (refused above), on the GPU, or while training.
        r.ignore(["angle", "reverse", "grad_centr", "stream", "wait_stream", "assisted_excitation"])
        return try r.bool("cbn", default: false)
    }

    /// `weights_type`: only `none` (plain sum) is implemented.
    static func checkShortcutWeights(_ r: inout SectionReader) throws(CfgError) {
        r.ignore(["weights_type"])
        guard let entry = r.entry("weights_type"), entry.value != "none" else { return }
        switch entry.value {
        case "per_feature", "per_layer", "per_channel":
            throw r.error("weights_type", .unsupported("weighted shortcut (weights_type=\(entry.value))"))
        default:
            throw r.error("weights_type", .invalidValue(value: entry.value, expected: "one of none, per_feature, per_layer, per_channel"))
        }
    }

    /// `scale_x_y`, `new_coords`, `nms_kind`, `beta_nms`; tracking keys are accepted and ignored.
    static func decodeYoloExtensions(_ r: inout SectionReader, into spec: inout YoloSpec) throws(CfgError) {
        spec.scaleXY = try r.float("scale_x_y", default: 1)
        spec.newCoords = try r.bool("new_coords", default: false)
        let beta = try r.float("beta_nms", default: 0.6)
        r.ignore(["nms_kind"])
        switch r.entry("nms_kind")?.value ?? "default" {
        case "default": spec.nms = .default
        case "greedynms": spec.nms = .greedy
        case "diounms": spec.nms = .diou(beta: beta)
        case let other:
            throw r.error("nms_kind", .invalidValue(value: other, expected: "one of default, greedynms, diounms"))
        }
        // Object tracking by embeddings (AlexeyAB's demo): no effect on detections.
        r.ignore(["track_history_size", "sim_thresh", "dets_for_track", "dets_for_show", "track_ciou_norm", "embedding_layer"])
    }

    static func decodeScaleChannels(_ r: inout SectionReader, index: Int) throws(CfgError) -> ScaleChannelsSpec {
        let from = try decodeSingleSource(&r, index: index)
        return ScaleChannelsSpec(from: from, scaleWH: try r.bool("scale_wh", default: false),
                                 activation: try decodeMultiplyActivation(&r, section: "scale_channels"))
    }

    static func decodeSam(_ r: inout SectionReader, index: Int) throws(CfgError) -> SamSpec {
        let from = try decodeSingleSource(&r, index: index)
        return SamSpec(from: from, activation: try decodeMultiplyActivation(&r, section: "sam"))
    }

    /// `from=N`: exactly one earlier layer.
    private static func decodeSingleSource(_ r: inout SectionReader, index: Int) throws(CfgError) -> Int {
        guard let written = try r.intList("from") else { throw r.error("from", .missingKey) }
        guard written.count == 1 else {
            throw r.error("from", .invalidValue(value: r.entry("from")!.value, expected: "one layer index"))
        }
        return try resolveSource(written[0], at: index, key: "from", reader: r)
    }

    /// `[scale_channels]` and `[sam]` apply their activation with AlexeyAB's plain
    /// `activate_array`, which has no case for relu6, swish, mish or hard_mish (it writes 0):
    /// those are refused rather than given a meaning AlexeyAB's Darknet does not have.
    private static func decodeMultiplyActivation(_ r: inout SectionReader, section: String) throws(CfgError) -> Activation {
        let activation = try r.activation("activation", default: .linear)
        switch activation {
        case .relu6, .swish, .mish, .hardMish:
            throw r.error("activation", .unsupported("activation=\(activation.rawValue) in [\(section)] (AlexeyAB's Darknet does not apply it there)"))
        default:
            return activation
        }
    }
}

extension NetworkSpec {
    /// AlexeyAB pads a dilated convolution by `padding * dilation` but sizes its output as if
    /// undilated; the two agree only for "same" padding (`2 * padding == size - 1`, e.g.
    /// `pad=1` with an odd size). Anything else would read its column buffer with the wrong
    /// shape there, so it is refused.
    static func checkDilation(_ r: SectionReader, size: Int, padding: Int, dilation: Int) throws(CfgError) {
        guard dilation > 1, 2 * padding != size - 1 else { return }
        throw r.error("dilation", .unsupported("dilation=\(dilation) with padding \(padding) for size \(size) (only 'same' padding, 2*padding = size-1)"))
    }
}
