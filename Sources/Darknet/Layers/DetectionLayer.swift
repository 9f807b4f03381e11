import Foundation

/// `[detection]`: YOLOv1's head. Its input holds `side x side` cells: every cell's class scores,
/// then every (cell, box) confidence, then 4 box values per (cell, box). At inference the layer
/// copies its input (with `softmax=1`, a softmax over each cell's scores); decoding spreads the
/// grid over the whole image, as Darknet does (the letterbox is not undone).
public struct DetectionSpec: Sendable, Equatable {
    /// Number of classes (`classes`, default 1).
    public var classes: Int
    /// Boxes per cell (`num`, default 1).
    public var num: Int
    /// Grid side (`side`, default 7).
    public var side: Int
    /// Softmax over each cell's class scores (`softmax`, default 0).
    public var softmax: Bool
    /// Widths and heights are predicted as square roots (`sqrt`, default 0).
    public var sqrt: Bool
}

extension DetectionSpec: DetectionHead, WeightlessLayer {
    static let sectionNames = ["detection"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> DetectionSpec {
        r.ignore(TrainingKeys.detection)
        let coords = try r.int("coords", default: 1, minimum: 1)
        // Darknet's decoding always reads 4 box values; its layer sizes use `coords`.
        guard coords == 4 else { throw r.error("coords", .unsupported("coords=\(coords) (Darknet decodes 4 box values)")) }
        return DetectionSpec(classes: try r.int("classes", default: 1, minimum: 1), num: try r.int("num", default: 1, minimum: 1),
                             side: try r.int("side", default: 7, minimum: 1), softmax: try r.bool("softmax", default: false),
                             sqrt: try r.bool("sqrt", default: false))
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let expected = try context.product(side, side, try context.product(num, 5) + classes)
        guard context.input.count == expected else {
            throw context.fail(.detectionSizeMismatch(expected: expected, actual: context.input.count))
        }
        return LayerPlanning(output: context.input)
    }

    func summary(_ layer: LayerPlan) -> String { "detection" }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        DetectionLayerActivation.forward(pass.input(of: layer), side: side, num: num, classes: classes, softmax: softmax,
                                         into: pass.output(of: layer))
    }

    /// Boxes in pixels of the original image, as Darknet's `get_detection_detections` makes them
    /// for `darknet detect`; relative to the network input for `darknet yolo test`.
    func boxesAreInImagePixels(_ detectionLayerBoxes: DetectionLayerBoxes) -> Bool { detectionLayerBoxes == .darknetDetect }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, into candidates: inout [BoxCandidate]) {
        decode(output, geometry: geometry, threshold: threshold, units: .darknetPixels, into: &candidates)
    }

    func decode(_ output: UnsafeBufferPointer<Float>, shape: TensorShape, networkShape: TensorShape,
                geometry: LetterboxGeometry, threshold: Float, hierThreshold: Float,
                detectionLayerBoxes: DetectionLayerBoxes, into candidates: inout [BoxCandidate]) {
        decode(output, geometry: geometry, threshold: threshold,
               units: detectionLayerBoxes == .darknetDetect ? .darknetPixels : .relative, into: &candidates)
    }

    private func decode(_ output: UnsafeBufferPointer<Float>, geometry: LetterboxGeometry, threshold: Float,
                        units: DetectionLayerDecoder.Units, into candidates: inout [BoxCandidate]) {
        DetectionLayerDecoder.decodeDetection(output.baseAddress!, side: side, num: num, classes: classes, sqrt: sqrt,
                                              threshold: threshold, imageWidth: geometry.imageWidth,
                                              imageHeight: geometry.imageHeight, units: units, into: &candidates)
    }
}

extension TrainingKeys {
    /// `[detection]` keys read only by Darknet's training code (or unused at inference).
    static let detection: Set<String> = [
        "rescore", "jitter", "object_scale", "noobject_scale", "class_scale", "coord_scale", "random", "reorg", "forced",
    ]
}
