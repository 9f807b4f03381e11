/// `[contrastive]` (AlexeyAB): the supervised contrastive loss on the embeddings a `[yolo]`
/// head's `embedding_layer` produces, for training object tracking.
///
/// At inference it computes nothing: AlexeyAB's CPU `forward_contrastive_layer` returns before
/// touching its output (which stays zero), and its GPU version first copies the input. This
/// layer is that copy, an identity: the embeddings stay readable as its output, and nothing in
/// AlexeyAB's networks reads the layer's output (its loss only matters for training). Every
/// key but `yolo_layer` only configures the loss and is ignored.
public struct ContrastiveSpec: Sendable, Equatable {
    /// The `[yolo]` layer whose boxes the loss pairs embeddings by (`yolo_layer`, resolved to
    /// an absolute index; required, as AlexeyAB's parser dereferences it).
    public var yoloLayer: Int
}

extension ContrastiveSpec: WeightlessLayer {
    static let sectionNames = ["contrastive"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> ContrastiveSpec {
        r.ignore(["classes", "temperature", "cls_normalizer", "max_delta", "contrastive_neg_max"])
        guard let written = try r.optionalInt("yolo_layer") else { throw r.error("yolo_layer", .missingKey) }
        let yoloLayer = try r.source(written, at: index, key: "yolo_layer")
        // AlexeyAB reads yolo_layer=0 (its default) as "none" and then dereferences it.
        guard yoloLayer != 0 else {
            throw r.error("yolo_layer", .invalidValue(value: String(written), expected: "a [yolo] layer other than layer 0"))
        }
        return ContrastiveSpec(yoloLayer: yoloLayer)
    }

    var needsAlexeyAB: Bool { true }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let kind = context.planned[yoloLayer].spec.kind
        guard case .yolo = kind else {
            throw context.fail(.contrastiveSourceNotYolo(layer: yoloLayer, section: kind.sectionName))
        }
        return LayerPlanning(output: context.input)
    }

    func summary(_ layer: LayerPlan) -> String {
        "contrastive       " + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        pass.output(of: layer).update(from: pass.input(of: layer), count: layer.outputShape.count)
    }
}
