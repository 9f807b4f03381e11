/// Decoding of the YOLOv2 and classifier sections: `[region]`, `[reorg]`, `[avgpool]`,
/// `[softmax]`, `[connected]`, `[dropout]`, `[batchnorm]`, `[cost]`, `[crop]`.
///
/// Keys follow Darknet's `parse_*` functions: those that change inference are read and
/// typed; training-only keys are accepted and ignored (`TrainingKeys`); keys for features
/// this library does not run are refused with the key's line.
extension NetworkSpec {
    static func decodeDarknetLayer(_ kind: SectionKind, _ r: inout SectionReader) throws(CfgError) -> LayerKind {
        switch kind {
        case .region: return .region(try decodeRegion(&r))
        case .reorg: return .reorg(try decodeReorg(&r))
        case .avgpool: return .avgpool(AvgpoolSpec())
        case .softmax: return .softmax(try decodeSoftmax(&r))
        case .connected: return .connected(try decodeConnected(&r))
        case .dropout: return .dropout(try decodeDropout(&r))
        case .batchnorm: return .batchnorm(BatchnormSpec())
        case .cost:
            r.ignore(TrainingKeys.cost)
            return .cost(CostSpec())
        case .crop: return .crop(try decodeCrop(&r))
        case .net, .convolutional, .maxpool, .route, .upsample, .shortcut, .yolo, .scaleChannels, .sam:
            preconditionFailure("decodeDarknetLayer called for [\(kind)]")
        }
    }

    private static func decodeRegion(_ r: inout SectionReader) throws(CfgError) -> RegionSpec {
        r.ignore(TrainingKeys.region)
        let coords = try r.int("coords", default: 4, minimum: 1)
        guard coords == 4 else {
            throw r.error("coords", .unsupported("coords=\(coords) (segmentation masks); only coords=4"))
        }
        let classes = try r.int("classes", default: 20, minimum: 1)
        let num = try r.int("num", default: 1, minimum: 1)
        // Not materialised when absent: `num` is not validated against the input until planning.
        var anchors: [(width: Float, height: Float)] = []
        if let values = try r.floatList("anchors") {
            guard values.count == 2 * num else {
                throw r.error("anchors", .invalidValue(value: r.entry("anchors")!.value,
                                                       expected: "num=\(num) width,height pairs (\(2 * num) numbers), found \(values.count)"))
            }
            anchors = stride(from: 0, to: values.count, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
        }
        try r.requireNeutral("background", 0, feature: "a background class (background=1)")
        for key in ["tree", "map"] where r.has(key) {
            throw r.error(key, .unsupported("class hierarchies (\(key)=, YOLO9000)"))
        }
        return RegionSpec(classes: classes, num: num, anchors: anchors, softmax: try r.bool("softmax", default: false))
    }

    private static func decodeReorg(_ r: inout SectionReader) throws(CfgError) -> ReorgSpec {
        let spec = ReorgSpec(stride: try r.int("stride", default: 1, minimum: 1),
                             reverse: try r.bool("reverse", default: false),
                             flatten: try r.bool("flatten", default: false),
                             extra: try r.int("extra", default: 0, minimum: 0))
        // Darknet's flatten branch copies `outputs` (input + extra) values from the input.
        if spec.flatten && spec.extra > 0 {
            throw r.error("extra", .unsupported("extra together with flatten (Darknet reads past its input)"))
        }
        return spec
    }

    private static func decodeSoftmax(_ r: inout SectionReader) throws(CfgError) -> SoftmaxSpec {
        r.ignore(TrainingKeys.softmax)
        let groups = try r.int("groups", default: 1, minimum: 1)
        let temperature = try r.float("temperature", default: 1)
        guard temperature > 0 else {
            throw r.error("temperature", .invalidValue(value: String(temperature), expected: "a positive number"))
        }
        if r.has("tree") { throw r.error("tree", .unsupported("softmax over a class hierarchy (tree=)")) }
        // Darknet's CPU forward ignores `spatial`, its GPU forward does not: refuse the ambiguity.
        try r.requireNeutral("spatial", 0, feature: "spatial softmax")
        return SoftmaxSpec(groups: groups, temperature: temperature)
    }

    private static func decodeConnected(_ r: inout SectionReader) throws(CfgError) -> ConnectedSpec {
        ConnectedSpec(outputs: try r.int("output", default: 1, minimum: 1),
                      activation: try r.activation("activation", default: .logistic),
                      batchNormalize: try r.bool("batch_normalize", default: false))
    }

    private static func decodeDropout(_ r: inout SectionReader) throws(CfgError) -> DropoutSpec {
        let probability = try r.float("probability", default: 0.5)
        guard (0...1).contains(probability) else {
            throw r.error("probability", .invalidValue(value: String(probability), expected: "a probability in 0...1"))
        }
        for key in ["dropblock", "dropblock_size_rel", "dropblock_size_abs"] where r.has(key) {
            throw r.error(key, .unsupported("DropBlock (\(key))"))
        }
        return DropoutSpec(probability: probability)
    }

    private static func decodeCrop(_ r: inout SectionReader) throws(CfgError) -> CropSpec {
        r.ignore(TrainingKeys.crop)
        return CropSpec(cropWidth: try r.int("crop_width", default: 1, minimum: 1),
                        cropHeight: try r.int("crop_height", default: 1, minimum: 1),
                        noAdjust: try r.bool("noadjust", default: false))
    }
}

extension TrainingKeys {
    /// `[region]` keys read only by Darknet's training code.
    static let region: Set<String> = [
        "log", "sqrt", "max", "jitter", "rescore", "thresh", "classfix", "absolute", "random",
        "coord_scale", "object_scale", "noobject_scale", "mask_scale", "class_scale", "bias_match",
        "focal_loss",
    ]
    /// `[softmax]`: `noloss` only affects the training loss.
    static let softmax: Set<String> = ["noloss"]
    /// `[cost]`: every key configures the training loss.
    static let cost: Set<String> = ["type", "scale", "ratio", "noobject_scale", "thresh"]
    /// `[crop]`: random flips, rotations and colour jitter are training augmentations; at
    /// inference Darknet takes the centre window.
    static let crop: Set<String> = ["flip", "angle", "saturation", "exposure", "shift"]
}
