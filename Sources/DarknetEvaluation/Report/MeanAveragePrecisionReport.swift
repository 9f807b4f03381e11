/// What `darknet detector map` reports, as a value: per class AP with TP / FP, the TP / FP /
/// FN, precision, recall, F1 and average IoU at the confidence threshold, the mAP, and COCO's
/// mAP@[.5:.95]. Fractions are in 0...1 (Darknet prints percentages). `Codable` with the
/// snake-case keys `swift-darknet map --json` writes.
public struct MeanAveragePrecisionReport: Sendable, Equatable, Codable {
    /// One class's scores.
    public struct ClassResult: Sendable, Equatable, Codable {
        public let classIndex: Int
        public let name: String
        /// AP by `options.points`.
        public let averagePrecision: Double
        /// Labelled objects of the class (difficult ones excluded).
        public let truths: Int
        /// Entries of the class that were ranked (those dropped for a difficult object excluded).
        public let detections: Int
        /// At the confidence threshold.
        public let truePositives: Int
        public let falsePositives: Int
        /// The class's TP IoU sum over its TP + FP at the threshold (0 without any).
        public let averageIoU: Float
        /// COCO's AP@[.5:.95] of the class; nil when it has no objects (COCO leaves it out).
        public let cocoAveragePrecision: Double?

        enum CodingKeys: String, CodingKey {
            case classIndex = "class_id", name, averagePrecision = "ap", truths, detections
            case truePositives = "tp", falsePositives = "fp", averageIoU = "average_iou", cocoAveragePrecision = "coco_ap"
        }
    }

    /// The settings scored with.
    public let options: MeanAveragePrecisionOptions
    /// Images scored.
    public let images: Int
    /// Entries ranked (Darknet's `detections_count`).
    public let detections: Int
    /// Labelled objects (Darknet's `unique_truth_count`).
    public let truths: Int
    /// Every class of the network, in index order.
    public let classes: [ClassResult]
    /// At the confidence threshold, over all classes.
    public let truePositives: Int
    public let falsePositives: Int
    public let falseNegatives: Int
    /// TP IoU sum over TP + FP at the threshold (0 without any).
    public let averageIoU: Float
    /// The mean of every class's AP (Darknet's mAP@`iouThreshold`).
    public let meanAveragePrecision: Double
    /// COCO's mAP@[.5:.95] over the classes with objects; nil if no class has any.
    public let cocoMeanAveragePrecision: Double?
    /// Label lines scored as written that look wrong.
    public let warnings: [LabelWarning]

    /// TP / (TP + FP) at the threshold; nil without detections above it (Darknet prints nan).
    public var precision: Float? {
        truePositives + falsePositives > 0 ? Float(truePositives) / (Float(truePositives) + Float(falsePositives)) : nil
    }

    /// TP / (TP + FN) at the threshold; nil without objects.
    public var recall: Float? {
        truths > 0 ? Float(truePositives) / (Float(truePositives) + Float(falseNegatives)) : nil
    }

    /// Classes with at least one labelled (non-difficult) object in the set.
    public var classesWithObjects: Int { classes.filter { $0.truths > 0 }.count }

    /// The mean AP over the classes with labelled objects only; nil when no class has any.
    ///
    /// `meanAveragePrecision` is Darknet's mean over **every** class of the network, those
    /// without objects counting 0: on a set that labels 10 of COCO's 80 classes it is at most
    /// 10/80 = 0.125. This is the same AP (same IoU threshold and points) averaged over the
    /// classes the set can score, the classes COCO's mAP@[.50:.95] averages over too.
    ///
    /// ```swift
    /// let report = try evaluation.meanAveragePrecision()
    /// print(report.classesWithObjects, "of", report.classes.count, "classes have objects:",
    ///       report.meanAveragePrecisionOverClassesWithObjects ?? 0)
    /// ```
    public var meanAveragePrecisionOverClassesWithObjects: Double? {
        let scored = classes.filter { $0.truths > 0 }
        guard !scored.isEmpty else { return nil }
        return scored.map(\.averagePrecision).reduce(0, +) / Double(scored.count)
    }

    /// The harmonic mean of precision and recall; nil when either is nil or both are 0.
    public var f1Score: Float? {
        guard let precision, let recall, precision + recall > 0 else { return nil }
        return 2 * precision * recall / (precision + recall)
    }

    enum CodingKeys: String, CodingKey {
        case options, images, detections = "detections_count", truths = "unique_truth_count", classes
        case truePositives = "tp", falsePositives = "fp", falseNegatives = "fn", averageIoU = "average_iou"
        case meanAveragePrecision = "map", cocoMeanAveragePrecision = "coco_map", warnings
        case precision, recall, f1Score = "f1"
        case classesWithObjects = "classes_with_objects", meanAveragePrecisionOverClassesWithObjects = "map_classes_with_objects"
    }

    public init(options: MeanAveragePrecisionOptions, images: Int, detections: Int, truths: Int, classes: [ClassResult],
                truePositives: Int, falsePositives: Int, falseNegatives: Int, averageIoU: Float,
                meanAveragePrecision: Double, cocoMeanAveragePrecision: Double?, warnings: [LabelWarning]) {
        self.options = options
        self.images = images
        self.detections = detections
        self.truths = truths
        self.classes = classes
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
        self.averageIoU = averageIoU
        self.meanAveragePrecision = meanAveragePrecision
        self.cocoMeanAveragePrecision = cocoMeanAveragePrecision
        self.warnings = warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(options: c.decode(MeanAveragePrecisionOptions.self, forKey: .options), images: c.decode(Int.self, forKey: .images),
                      detections: c.decode(Int.self, forKey: .detections), truths: c.decode(Int.self, forKey: .truths),
                      classes: c.decode([ClassResult].self, forKey: .classes), truePositives: c.decode(Int.self, forKey: .truePositives),
                      falsePositives: c.decode(Int.self, forKey: .falsePositives),
                      falseNegatives: c.decode(Int.self, forKey: .falseNegatives), averageIoU: c.decode(Float.self, forKey: .averageIoU),
                      meanAveragePrecision: c.decode(Double.self, forKey: .meanAveragePrecision),
                      cocoMeanAveragePrecision: c.decodeIfPresent(Double.self, forKey: .cocoMeanAveragePrecision),
                      warnings: c.decode([LabelWarning].self, forKey: .warnings))
    }

    /// Encodes the stored values and, for readers of the JSON, precision, recall, F1, the
    /// count of classes with objects and the mAP over them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(options, forKey: .options)
        try c.encode(images, forKey: .images)
        try c.encode(detections, forKey: .detections)
        try c.encode(truths, forKey: .truths)
        try c.encode(classes, forKey: .classes)
        try c.encode(truePositives, forKey: .truePositives)
        try c.encode(falsePositives, forKey: .falsePositives)
        try c.encode(falseNegatives, forKey: .falseNegatives)
        try c.encode(precision, forKey: .precision)
        try c.encode(recall, forKey: .recall)
        try c.encode(f1Score, forKey: .f1Score)
        try c.encode(averageIoU, forKey: .averageIoU)
        try c.encode(meanAveragePrecision, forKey: .meanAveragePrecision)
        try c.encode(classesWithObjects, forKey: .classesWithObjects)
        try c.encode(meanAveragePrecisionOverClassesWithObjects, forKey: .meanAveragePrecisionOverClassesWithObjects)
        try c.encode(cocoMeanAveragePrecision, forKey: .cocoMeanAveragePrecision)
        try c.encode(warnings, forKey: .warnings)
    }
}
