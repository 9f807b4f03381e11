import Darknet
import DarknetImage
import Foundation

/// A detector run over a `ValidationSet` the way AlexeyAB's `darknet detector map`, `valid`
/// and `recall` run it: one image at a time, the next one decoded meanwhile, so memory does not
/// grow with the number of images (only `map`'s compact per-detection records do).
///
/// ```swift
/// let set = try ValidationSet(data: objDataURL)
/// let detector = try Detector(data: objDataURL, cfg: cfgURL, weights: weightsURL)
/// let evaluation = try DetectorEvaluation(detector: detector, set: set, cfg: cfgURL)
/// let report = try evaluation.meanAveragePrecision(options: MeanAveragePrecisionOptions(points: 11))
/// print(report.darknetText)              // AlexeyAB's lines
/// print(report.meanAveragePrecision)     // and the values, Codable
/// ```
public struct DetectorEvaluation: Sendable {
    public let detector: Detector
    public let set: ValidationSet
    /// Letterbox the images (`letter_box=1` in the cfg) or stretch them (AlexeyAB's default).
    public let letterbox: Bool
    /// Decodes an image file (default: `PlanarImage(contentsOf:channels:)` with the network
    /// input's channel count, as AlexeyAB's `detector map` loads it).
    public let load: @Sendable (String) throws -> PlanarImage

    /// An evaluation of `detector` on `set`.
    /// - Parameters:
    ///   - detector: the network scored.
    ///   - set: the images and their labels.
    ///   - letterbox: letterbox the images (`letter_box=1`) or stretch them.
    ///   - load: decodes an image file; nil: `PlanarImage(contentsOf:channels:)` with the
    ///     network input's channels (grey for a `channels=1` network, as AlexeyAB loads it).
    public init(detector: Detector, set: ValidationSet, letterbox: Bool,
                load: (@Sendable (String) throws -> PlanarImage)? = nil) {
        self.detector = detector
        self.set = set
        self.letterbox = letterbox
        let channels = detector.network.inputShape.channels == 1 ? 1 : 3  // others: colour, refused by the detector
        self.load = load ?? { try PlanarImage(contentsOf: URL(fileURLWithPath: $0), channels: channels) }
    }

    /// An evaluation that letterboxes as `cfg` asks (`CfgLetterbox`).
    /// - Throws: `FileError`, `CfgError`.
    public init(detector: Detector, set: ValidationSet, cfg: URL) throws {
        self.init(detector: detector, set: set, letterbox: try CfgLetterbox.read(cfg))
    }

    /// The detector's class count.
    public var classes: Int { DetectionDecoder.classCount(of: detector.network.plan) }

    /// `darknet detector map`: every image detected with `DetectionOptions.meanAveragePrecision`
    /// and scored against its labels (`MeanAveragePrecisionScorer`).
    /// - Parameters:
    ///   - options: the IoU threshold, interpolation points and reported confidence threshold
    ///     (`darknet detector map`'s `-iou_thresh`, `-points`, `-thresh`).
    ///   - progress: called after each image with the number scored so far.
    /// - Throws: the first image, label file or option error (`ImageError`, `FileError`,
    ///   `LabelFileError`, `EvaluationError`).
    public func meanAveragePrecision(options: MeanAveragePrecisionOptions = MeanAveragePrecisionOptions(),
                                     progress: ((Int) -> Void)? = nil) throws -> MeanAveragePrecisionReport {
        var scorer = try MeanAveragePrecisionScorer(classes: classes, names: detector.labels, options: options)
        let detection = DetectionOptions.meanAveragePrecision(letterbox: letterbox)
        try ImageLookAhead(paths: set.images, load: load).forEach { index, image in
            let labels = try set.labels(ofImage: index, classes: classes)
            let difficult = try set.difficultLabels(ofImage: index, classes: classes)
            let detections = try detector.detect(image, options: detection)
            try scorer.add(detections, truths: labels.boxes, difficult: difficult?.boxes ?? [],
                           imageWidth: image.width, imageHeight: image.height)
            scorer.note(labels.warnings + (difficult?.warnings ?? []))
            progress?(index + 1)
        }
        return scorer.report()
    }

    /// `darknet detector valid`: every image's boxes (probabilities above 0.001, hierarchy
    /// threshold 0.5) scaled to the image's pixels, suppressed there (NMS at 0.6, the cfg's
    /// `nms_kind`: the distance term of DIoU-NMS depends on the scale, so the pixel boxes are what
    /// Darknet compares) and handed to `writer` (`VOCResultsWriter`, `COCOResultsWriter`) in list
    /// order.
    public func validate(into writer: inout some DetectionWriter, progress: ((Int) -> Void)? = nil) throws {
        let plan = detector.network.plan
        let kind = DetectionDecoder.nmsKind(of: plan), classes = classes
        try ImageLookAhead(paths: set.images, load: load).forEach { index, image in
            var boxes = try detector.candidates(image, threshold: 0.001, hierThreshold: 0.5, letterbox: letterbox)
            let width = Float(image.width), height = Float(image.height)
            for i in boxes.indices {
                let b = boxes[i].box
                boxes[i].box = RelativeBox(x: b.x * width, y: b.y * height, width: b.width * width, height: b.height * height)
            }
            NonMaximumSuppression.apply(&boxes, classes: classes, threshold: 0.6, kind: kind)
            try writer.write(boxes, image: set.images[index], width: image.width, height: image.height)
            progress?(index + 1)
        }
        try writer.finish()
    }

    /// `darknet detector recall`: calls `each` after every image with the running totals.
    /// - Returns: the totals over all images.
    @discardableResult
    public func recall(_ each: (RecallLine) -> Void = { _ in }) throws -> RecallLine {
        var recall = RecallCounter()
        try ImageLookAhead(paths: set.images, load: load).forEach { index, image in
            let labels = try set.labels(ofImage: index, classes: classes)
            let candidates = try detector.candidates(image, threshold: RecallCounter.threshold, hierThreshold: 0.5,
                                                     letterbox: false)
            each(recall.add(candidates, truths: labels.boxes))
        }
        return recall.line
    }
}
