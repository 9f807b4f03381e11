import Foundation

/// `[Gaussian_yolo]` (AlexeyAB, Gaussian YOLOv3): a `[yolo]` head that also predicts an
/// uncertainty (a logistic "sigma") for each of the four box coordinates.
///
/// Each anchor owns `classes + 9` planes: x mean, x sigma, y mean, y sigma, w mean, w sigma,
/// h mean, h sigma, objectness, then the class scores. Detections are scored as AlexeyAB's
/// `get_gaussian_yolo_detections` does: `objectness * class score * (1 - mean of the four
/// sigmas)`, so an uncertain box ranks lower.
public struct GaussianYoloSpec: Sendable, Equatable {
    /// Where a box's `(x, y)` sits (`yolo_point`): AlexeyAB's decoder shifts the box by half its
    /// size for the corner variants.
    public enum Point: String, Sendable, Equatable {
        /// The box centre (`center`, the default).
        case center
        /// The top-left corner (`left_top`): the centre is `x + w / 2`, `y + h / 2`.
        case leftTop = "left_top"
        /// The bottom-right corner (`right_bottom`): the centre is `x - w / 2`, `y - h / 2`.
        case rightBottom = "right_bottom"
    }

    /// Indices into `anchors` used by this head (`mask`, default `0..<num`).
    public var mask: [Int]
    /// All anchors as (width, height) pairs in network-input pixels (`anchors`).
    public var anchors: [(width: Float, height: Float)]
    /// Number of classes (`classes`, default 20).
    public var classes: Int
    /// `scale_x_y` (default 1): the x and y means become `s * v - (s - 1) / 2` after the logistic.
    public var scaleXY: Float = 1
    /// `yolo_point` (default `center`).
    public var point: Point = .center
    /// How detections are suppressed (`nms_kind`, `beta_nms`) if this is the network's last head.
    public var nms: NMSKind = .default

    public static func == (a: GaussianYoloSpec, b: GaussianYoloSpec) -> Bool {
        a.mask == b.mask && a.classes == b.classes && a.anchors.count == b.anchors.count
            && zip(a.anchors, b.anchors).allSatisfy { $0.width == $1.width && $0.height == $1.height }
            && a.scaleXY == b.scaleXY && a.point == b.point && a.nms == b.nms
    }

    /// Planes per anchor: 8 (mean and sigma of x, y, w, h) + objectness + classes.
    var entries: Int { classes + 9 }
}

extension GaussianYoloSpec: DetectionHead, WeightlessLayer {
    static let sectionNames = ["Gaussian_yolo"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> GaussianYoloSpec {
        r.ignore(TrainingKeys.yolo)
        let classes = try r.int("classes", default: 20, minimum: 1)
        let num = try r.int("num", default: 1, minimum: 1)
        let values = try r.anchors(count: 2 * num)
        // AlexeyAB's Gaussian parser writes every value it reads into `num` pairs: more overrun them.
        guard values.count <= 2 * num else {
            throw r.error("anchors", .invalidValue(value: r.entry("anchors")!.value,
                                                   expected: "num=\(num) width,height pairs (\(2 * num) numbers), found \(values.count)"))
        }
        let anchors = stride(from: 0, to: values.count - 1, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
        let mask = try r.intList("mask") ?? Array(0..<num)
        if let bad = mask.first(where: { $0 < 0 || $0 >= num }) {
            throw r.error("mask", .invalidValue(value: String(bad), expected: "anchor indices in 0..<\(num)"))
        }
        var spec = GaussianYoloSpec(mask: mask, anchors: anchors, classes: classes)
        spec.scaleXY = try r.float("scale_x_y", default: 1)
        if let point = r.entry("yolo_point") {
            r.ignore(["yolo_point"])
            guard let value = Point(rawValue: point.value) else {
                throw r.error("yolo_point", .invalidValue(value: point.value, expected: "one of center, left_top, right_bottom"))
            }
            spec.point = value
        }
        let beta = try r.float("beta_nms", default: 0.6)
        r.ignore(["nms_kind"])
        switch r.entry("nms_kind")?.value ?? "default" {
        case "default": spec.nms = .default
        case "greedynms": spec.nms = .greedy
        case "diounms": spec.nms = .diou(beta: beta)
        case "cornersnms":
            throw r.error("nms_kind", .unsupported("nms_kind=cornersnms (AlexeyAB's box merging for corner points)"))
        case let other:
            throw r.error("nms_kind", .invalidValue(value: other, expected: "one of default, greedynms, diounms"))
        }
        return spec
    }

    var needsAlexeyAB: Bool { true }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let expected = try context.product(mask.count, entries)
        guard context.input.channels == expected else {
            throw context.fail(.gaussianYoloChannelMismatch(expected: expected, actual: context.input.channels))
        }
        return LayerPlanning(output: context.input)
    }

    func summary(_ layer: LayerPlan) -> String {
        "Gaussian_yolo"
    }

    /// AlexeyAB's `forward_gaussian_yolo_layer`: a copy of the input with the logistic on the
    /// x and y means and sigmas, the w and h sigmas (not their means), objectness and class
    /// scores; then the x and y means (not their sigmas) mapped to `s * v - (s - 1) / 2`.
    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let entries = entries
        AnchorPlanes.forward(layer, in: pass, entries: entries) { planes in
            for anchor in 0..<mask.count {
                planes.logistic(0..<4, of: anchor)
                planes.logistic(5..<6, of: anchor)
                planes.logistic(7..<entries, of: anchor)
                if scaleXY != 1 {
                    planes.scaleXY(0..<1, of: anchor, scale: scaleXY)
                    planes.scaleXY(2..<3, of: anchor, scale: scaleXY)
                }
            }
        }
    }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, into candidates: inout [BoxCandidate]) {
        let plane = shape.planeSize, entries = entries
        let netW = networkShape.width, netH = networkShape.height
        for cell in 0..<plane {
            let row = cell / shape.width, column = cell % shape.width
            for (n, anchorIndex) in mask.enumerated() {
                let base = n * entries * plane + cell
                func value(_ entry: Int) -> Float { output[base + entry * plane] }
                let objectness = value(8)
                guard objectness > threshold else { continue }
                let anchor = anchors[anchorIndex]
                // get_gaussian_yolo_box: the sizes from the w and h means in double, the centre in float.
                let width = Float(exp(Double(value(4))) * Double(anchor.width) / Double(netW))
                let height = Float(exp(Double(value(6))) * Double(anchor.height) / Double(netH))
                var x = (Float(column) + value(0)) / Float(shape.width)
                var y = (Float(row) + value(2)) / Float(shape.height)
                switch point {
                case .center: break
                case .leftTop: x += width / 2; y += height / 2
                case .rightBottom: x -= width / 2; y -= height / 2
                }
                let uncertainty = BoxUncertainty(x: value(1), y: value(3), width: value(5), height: value(7))
                // uc_aver is a float of a double division; the product goes through double.
                let meanSigma = Float(Double(uncertainty.x + uncertainty.y + uncertainty.width + uncertainty.height) / 4.0)
                let certainty = 1.0 - Double(meanSigma)
                var probabilities = [Float](repeating: 0, count: classes)
                for j in 0..<classes {
                    let probability = Float(Double(objectness * value(9 + j)) * certainty)
                    probabilities[j] = probability > threshold ? probability : 0
                }
                candidates.append(BoxCandidate(box: RelativeBox(x: x, y: y, width: width, height: height),
                                               objectness: objectness, probabilities: probabilities,
                                               uncertainty: uncertainty))
            }
        }
    }
}

/// The four sigmas a `[Gaussian_yolo]` head predicts for a box (after its logistic, so in
/// 0...1; larger is less certain), for the box's x, y, width and height.
public struct BoxUncertainty: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
