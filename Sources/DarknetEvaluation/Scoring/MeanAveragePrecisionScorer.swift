import Darknet

/// Scores detections against labelled truths as AlexeyAB's `darknet detector map` does, one
/// image at a time: each image's detections are matched when it is added and only a compact
/// record per detection is kept (class, confidence, matched truth), so any number of images
/// can be scored in bounded memory per image.
///
/// AlexeyAB's rules (`validate_detector_map`, src/detector.c):
/// - every (box, class) with a probability > 0 after NMS is an entry, in Darknet's order (the
///   order `Detector.detect` returns);
/// - an entry's truth is the truth of its class with the highest IoU (AlexeyAB's `box_iou`)
///   **greater than** `iouThreshold` (the first on a tie); if it has none but overlaps a
///   difficult object of its class that much, the entry is dropped;
/// - entries are ranked by confidence over the whole set (ties keep the order they were added,
///   as glibc's merge-sort `qsort` leaves them); down the ranking, an entry whose truth is not
///   yet taken is a true positive and takes it, every other one a false positive;
/// - a class's AP follows `PrecisionRecallCurve.averagePrecision(points:)`; the mAP is the mean
///   over **all** classes of the network, those without objects included (they score 0);
/// - at `confidenceThreshold`, an entry above it counts as TP when it has a truth that no
///   earlier entry of the same image (in Darknet's order, at any confidence) had; the average
///   IoU is the TPs' IoU sum over TP + FP.
///
/// COCO's mAP@[.5:.95] (pycocotools' rules, see `COCOAveragePrecision`) is computed on the same
/// detections and the non-difficult truths.
public struct MeanAveragePrecisionScorer: Sendable {
    public let classes: Int
    public let names: [String]
    public let options: MeanAveragePrecisionOptions

    /// Ranked entries per class: confidence and matched truth (`-1`: none).
    private var confidences: [[Float]]
    private var matchedTruths: [[Int32]]
    private var truthCounts: [Int]
    private var truthTotal = 0
    private var images = 0
    private var truePositives: [Int]
    private var falsePositives: [Int]
    private var intersectionSums: [Float]
    private var intersectionTotal: Float = 0
    private var coco: COCOAveragePrecision
    private var warnings: [LabelWarning] = []

    /// A scorer for a network of `classes` classes named `names` (indices without names).
    /// - Throws: `EvaluationError.invalidOption` for options out of range.
    public init(classes: Int, names: [String] = [], options: MeanAveragePrecisionOptions = MeanAveragePrecisionOptions())
        throws(EvaluationError) {
        try options.validate()
        guard classes >= 1 else { throw .invalidOption(name: "classes", value: "\(classes)", expected: "at least 1") }
        self.classes = classes
        self.names = (0..<classes).map { $0 < names.count ? names[$0] : String($0) }
        self.options = options
        confidences = Array(repeating: [], count: classes)
        matchedTruths = Array(repeating: [], count: classes)
        truthCounts = Array(repeating: 0, count: classes)
        truePositives = Array(repeating: 0, count: classes)
        falsePositives = Array(repeating: 0, count: classes)
        intersectionSums = Array(repeating: 0, count: classes)
        coco = COCOAveragePrecision(classes: classes)
    }

    /// Adds one image: its detections in Darknet's order (`Detector.detect` with
    /// `DetectionOptions.meanAveragePrecision`), its labelled objects and its difficult ones.
    /// - Throws: `EvaluationError.invalidOption` for a class index outside `0..<classes`
    ///   (`LabelFile` checks the labels'; a detector with `classes` classes gives no other).
    public mutating func add(_ detections: [Detection], truths: [GroundTruthBox], difficult: [GroundTruthBox] = [],
                             imageWidth: Int, imageHeight: Int) throws(EvaluationError) {
        let classIndices = detections.map(\.classIndex) + truths.map(\.classIndex) + difficult.map(\.classIndex)
        if let odd = classIndices.first(where: { !(0..<classes).contains($0) }) {
            throw .invalidOption(name: "a class index", value: "\(odd)", expected: "an index below the \(classes) classes")
        }
        let firstTruth = truthTotal
        var claimed = Set<Int32>()
        for d in detections where d.confidence > 0 {
            var truth: Int32 = -1
            var bestIoU: Float = 0
            for (j, t) in truths.enumerated() {
                let iou = d.box.alexeyABIntersectionOverUnion(t.box)
                if iou > options.iouThreshold && d.classIndex == t.classIndex && iou > bestIoU {
                    bestIoU = iou
                    truth = Int32(firstTruth + j)
                }
            }
            let dropped = truth < 0 && difficult.contains { t in
                d.classIndex == t.classIndex && d.box.alexeyABIntersectionOverUnion(t.box) > options.iouThreshold
            }
            if !dropped {
                confidences[d.classIndex].append(d.confidence)
                matchedTruths[d.classIndex].append(truth)
            }
            if d.confidence > options.confidenceThreshold {
                if truth >= 0 && !claimed.contains(truth) {
                    truePositives[d.classIndex] += 1
                    intersectionSums[d.classIndex] += bestIoU
                    intersectionTotal += bestIoU
                } else {
                    falsePositives[d.classIndex] += 1
                }
            }
            if !dropped { claimed.insert(truth) }
        }
        for t in truths { truthCounts[t.classIndex] += 1 }
        truthTotal += truths.count
        images += 1
        coco.add(detections.filter { $0.confidence > 0 }, truths: truths, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// Records label lines that were scored as written but look wrong (reported, not judged).
    public mutating func note(_ warnings: [LabelWarning]) {
        self.warnings += warnings
    }

    /// The scores so far.
    public func report() -> MeanAveragePrecisionReport {
        let (cocoPerClass, cocoMean) = coco.averagePrecisions()
        var perClass: [MeanAveragePrecisionReport.ClassResult] = []
        for k in 0..<classes {
            let order = confidences[k].indices.sorted { a, b in
                confidences[k][a] != confidences[k][b] ? confidences[k][a] > confidences[k][b] : a < b
            }
            var taken = Set<Int32>()
            let outcomes = order.map { i -> Bool in
                let truth = matchedTruths[k][i]
                return truth >= 0 && taken.insert(truth).inserted
            }
            let curve = PrecisionRecallCurve(outcomes, truths: truthCounts[k])
            let tp = truePositives[k], fp = falsePositives[k]
            perClass.append(MeanAveragePrecisionReport.ClassResult(
                classIndex: k, name: names[k], averagePrecision: curve.averagePrecision(points: options.points),
                truths: truthCounts[k], detections: confidences[k].count, truePositives: tp, falsePositives: fp,
                averageIoU: tp + fp > 0 ? intersectionSums[k] / Float(tp + fp) : 0,
                cocoAveragePrecision: cocoPerClass[k]))
        }
        let tp = truePositives.reduce(0, +), fp = falsePositives.reduce(0, +)
        return MeanAveragePrecisionReport(
            options: options, images: images, detections: confidences.map(\.count).reduce(0, +), truths: truthTotal,
            classes: perClass, truePositives: tp, falsePositives: fp, falseNegatives: truthTotal - tp,
            averageIoU: tp + fp > 0 ? intersectionTotal / Float(tp + fp) : 0,
            meanAveragePrecision: perClass.map(\.averagePrecision).reduce(0, +) / Double(classes),
            cocoMeanAveragePrecision: cocoMean, warnings: warnings)
    }
}
