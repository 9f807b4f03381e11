/// `[region]`: the YOLOv2 detection head.
///
/// Its input holds, for each of the `num` anchors, `coords + 1 + classes` planes: box x, y,
/// w, h, objectness, then the class scores (`anchor * (classes + 5) + entry`, as Darknet's
/// `entry_index`). The forward pass applies the logistic to x, y and objectness and, with
/// `softmax=1`, a softmax over each anchor's classes (the logistic otherwise).
public struct RegionSpec: Sendable, Equatable {
    /// Number of classes (`classes`, default 20).
    public var classes: Int
    /// Anchors per cell (`num`, default 1).
    public var num: Int
    /// Anchor (width, height) pairs in grid cells (`anchors`), `num` of them; empty when the
    /// cfg gives none (Darknet's default 0.5, 0.5 for each, see `anchor(_:)`).
    public var anchors: [(width: Float, height: Float)]
    /// Softmax over the classes of each anchor (`softmax=1`) instead of the logistic.
    public var softmax: Bool
    /// The class hierarchy file the cfg names (`tree=`, YOLO9000's `9k.tree`): a softmax over
    /// each group of sibling classes instead, and hierarchical decoding (`hierThreshold`).
    public var treeFile: ClassTreeReference? = nil
    /// That hierarchy, read when a network is loaded (`NetworkSpec.loadingClassTrees()`); nil
    /// in a spec as parsed.
    public var tree: ClassTree? = nil

    /// Anchor `n`'s size in grid cells.
    public func anchor(_ n: Int) -> (width: Float, height: Float) {
        anchors.isEmpty ? (0.5, 0.5) : anchors[n]
    }

    /// Box entries per anchor before objectness (`coords`; only 4 is supported).
    public var coords: Int { 4 }
    /// Planes per anchor: `coords + 1 + classes`.
    public var entries: Int { coords + 1 + classes }

    public static func == (a: RegionSpec, b: RegionSpec) -> Bool {
        a.classes == b.classes && a.num == b.num && a.softmax == b.softmax && a.anchors.count == b.anchors.count
            && zip(a.anchors, b.anchors).allSatisfy { $0.width == $1.width && $0.height == $1.height }
            && a.treeFile == b.treeFile && a.tree == b.tree
    }
}

extension RegionSpec: DetectionHead, WeightlessLayer {
    static let sectionNames = ["region"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> RegionSpec {
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
        let treeFile = r.classTree("tree")
        // `map=` (coco9k.map) maps tree classes to a dataset's for Darknet's validation; detection does not read it.
        r.ignore(["map"])
        return RegionSpec(classes: classes, num: num, anchors: anchors, softmax: try r.bool("softmax", default: false),
                          treeFile: treeFile)
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let expected = num * entries
        guard context.input.channels == expected else {
            throw context.fail(.regionChannelMismatch(expected: expected, actual: context.input.channels))
        }
        return LayerPlanning(output: context.input)
    }

    func summary(_ layer: LayerPlan) -> String {
        "detection"
    }

    /// Darknet's `[region]` forward: a copy of the input with the logistic applied to x, y and
    /// objectness of every anchor, and a softmax (or the logistic) over its class scores.
    ///
    /// With a `tree`, the softmax runs over each group of sibling classes, for each anchor and
    /// cell, with temperature 1: what Darknet's GPU forward computes. Its CPU forward (Debian's
    /// build) would give NaN and raw values instead: it lays the groups out as if the entries of
    /// all anchors and cells were interleaved and divides by a temperature its parser never sets
    /// (0); see `Tools/darknet-reference/RECURRENT_AND_V1.md`.
    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let shape = layer.outputShape, output = pass.output(of: layer)
        output.update(from: pass.input(of: layer), count: shape.count)
        let plane = shape.planeSize
        for anchor in 0..<num {
            let base = output + anchor * entries * plane
            pass.kernels.activate(base, count: 2 * plane, activation: .logistic)
            pass.kernels.activate(base + coords * plane, count: plane, activation: .logistic)
            let classScores = base + (coords + 1) * plane
            if let tree {
                TreeSoftmax.forward(classScores, tree: tree, sets: plane, setSpacing: 1, classSpacing: plane, stride: plane,
                                    temperature: 1, into: classScores)
            } else if softmax {
                for cell in 0..<plane {
                    Darknet.softmax(classScores + cell, count: classes, temperature: 1, stride: plane, into: classScores + cell)
                }
            } else {
                pass.kernels.activate(classScores, count: classes * plane, activation: .logistic)
            }
        }
    }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, into candidates: inout [BoxCandidate]) {
        decode(output, shape: shape, networkShape: networkShape, geometry: geometry, threshold: threshold, hierThreshold: 0.5,
               detectionLayerBoxes: .darknetDetect, into: &candidates)
    }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, hierThreshold: Float,
                detectionLayerBoxes: DetectionLayerBoxes, into candidates: inout [BoxCandidate]) {
        if let tree {
            RegionDecoder.decode(output, shape: shape, spec: self, tree: tree, threshold: threshold,
                                 hierThreshold: hierThreshold, into: &candidates)
        } else {
            RegionDecoder.decode(output, shape: shape, spec: self, threshold: threshold, into: &candidates)
        }
    }
}

extension TrainingKeys {
    /// `[region]` keys read only by Darknet's training code.
    static let region: Set<String> = [
        "log", "sqrt", "max", "jitter", "rescore", "thresh", "classfix", "absolute", "random",
        "coord_scale", "object_scale", "noobject_scale", "mask_scale", "class_scale", "bias_match",
        "focal_loss",
    ]
}
