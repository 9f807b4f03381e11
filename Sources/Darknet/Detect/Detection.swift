import Foundation

/// A box as Darknet keeps it: centre and size as fractions of the image (0...1 inside it).
public struct RelativeBox: Sendable, Equatable {
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

    /// Darknet's `box_iou`, in float32 like Darknet.
    public func intersectionOverUnion(_ other: RelativeBox) -> Float {
        let (intersection, union) = intersectionAndUnion(other)
        return intersection / union
    }

    /// The areas of the intersection and the union with `other`, as Darknet's
    /// `box_intersection` and `box_union` compute them (float32).
    func intersectionAndUnion(_ other: RelativeBox) -> (intersection: Float, union: Float) {
        func overlap(_ x1: Float, _ w1: Float, _ x2: Float, _ w2: Float) -> Float {
            let left = max(x1 - w1 / 2, x2 - w2 / 2)
            let right = min(x1 + w1 / 2, x2 + w2 / 2)
            return right - left
        }
        let w = overlap(x, width, other.x, other.width)
        let h = overlap(y, height, other.y, other.height)
        let intersection: Float = (w < 0 || h < 0) ? 0 : w * h
        return (intersection, width * height + other.width * other.height - intersection)
    }

    /// The pixel rectangle Darknet's `draw_detections` draws for this box in an image of
    /// `imageWidth x imageHeight`: edges from `(x -/+ w/2) * size` in double precision,
    /// truncated toward zero, clamped to the image.
    public func pixelRect(imageWidth: Int, imageHeight: Int) -> PixelRect {
        func edge(_ centre: Float, _ size: Float, _ sign: Double, _ extent: Int) -> Int {
            let value = (Double(centre) + sign * Double(size) / 2) * Double(extent)
            guard value.isFinite else { return value > 0 ? Int.max / 2 : Int.min / 2 }
            return Int(max(min(value, 1e15), -1e15))
        }
        var left = edge(x, width, -1, imageWidth), right = edge(x, width, 1, imageWidth)
        var top = edge(y, height, -1, imageHeight), bottom = edge(y, height, 1, imageHeight)
        if left < 0 { left = 0 }
        if right > imageWidth - 1 { right = imageWidth - 1 }
        if top < 0 { top = 0 }
        if bottom > imageHeight - 1 { bottom = imageHeight - 1 }
        return PixelRect(left: left, top: top, right: right, bottom: bottom)
    }
}

/// A rectangle in image pixels, edges inclusive as Darknet draws them.
public struct PixelRect: Sendable, Equatable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int

    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// `right - left`, as Darknet's JSON-style output reports it.
    public var width: Int { right - left }
    /// `bottom - top`.
    public var height: Int { bottom - top }
}

/// One object found in an image: a box and one class whose probability passed the threshold.
///
/// A box that passes for several classes yields one `Detection` per class, as Darknet
/// prints them.
public struct Detection: Sendable, Equatable {
    /// Index into the class list.
    public let classIndex: Int
    /// The class name (from the names file), or the index as text without one.
    public let label: String
    /// `objectness * class score`, Darknet's reported probability.
    public let confidence: Float
    /// The box's objectness.
    public let objectness: Float
    /// The box relative to the original image.
    public let box: RelativeBox
    /// The box in original-image pixels, as Darknet draws it.
    public let rect: PixelRect
    /// The box's predicted uncertainties (`[Gaussian_yolo]` heads only; `nil` otherwise).
    public var uncertainty: BoxUncertainty? = nil

    /// A detection from its parts (for detections found some other way, e.g. to score them).
    public init(classIndex: Int, label: String, confidence: Float, objectness: Float, box: RelativeBox, rect: PixelRect,
                uncertainty: BoxUncertainty? = nil) {
        self.classIndex = classIndex
        self.label = label
        self.confidence = confidence
        self.objectness = objectness
        self.box = box
        self.rect = rect
        self.uncertainty = uncertainty
    }
}

extension PixelRect: CustomStringConvertible {
    /// `x 129 y 186 w 240 h 331`: the left and top edges and the size, as the JSON reports them.
    public var description: String { "x \(left) y \(top) w \(width) h \(height)" }
}

extension Detection: CustomStringConvertible {
    /// `dog: 56% (x 129 y 186 w 240 h 331)`: the label and confidence as Darknet prints them, and
    /// the pixel rectangle.
    public var description: String { String(format: "%@: %.0f%% (%@)", label, confidence * 100, rect.description) }
}

/// Where YOLOv1's `[detection]` head puts its boxes, as one Darknet command or the other prints
/// them.
public enum DetectionLayerBoxes: Sendable, Equatable {
    /// As `darknet detect` and `detector test` print them (the default): Darknet's
    /// `get_network_boxes` puts these boxes in pixels of the image, and `draw_detections`
    /// multiplies them by the image size once more, so most of their edges end on the image's
    /// border.
    case darknetDetect
    /// As YOLOv1's own command, `darknet yolo test` (and `coco test`), prints them: relative to
    /// the image, the boxes the network predicts. Darknet's command stretches the image
    /// (`letterbox: false`); a letterboxed image's boxes are mapped back through the letterbox, as
    /// the other heads' are. `DetectionOptions.yoloTest` has the command's other settings.
    case yoloTest
}

/// The order detections are listed in.
public enum DetectionOrder: Sendable, Equatable {
    /// Darknet's print order (by box, then class): what `darknet detect` prints.
    case darknet
    /// Highest confidence first (ties keep Darknet's order).
    case confidence
}

/// Thresholds of detection decoding (Darknet's `detect` defaults) and how results are shaped.
public struct DetectionOptions: Sendable, Equatable {
    /// Minimum objectness and class probability (`-thresh`, 0.5).
    public var threshold: Float
    /// Threshold inside class hierarchies (`-hier`, 0.5; only tree-structured heads use it).
    public var hierThreshold: Float
    /// IoU above which a weaker box of the same class is suppressed (0.45); 0 disables NMS.
    public var nmsThreshold: Float
    /// Letterbox the image (Darknet's default) instead of stretching it.
    public var letterbox: Bool
    /// Keep at most this many detections, the most confident ones (nil: all; at least 0).
    /// Applied after the class filter, before ordering.
    public var maximumDetections: Int?
    /// Report only these class indices (nil: every class). Darknet suppresses overlaps per
    /// class, so filtering after NMS is the same as a network that knew only these classes'
    /// boxes.
    public var classes: Set<Int>?
    /// How the result is ordered (default: Darknet's).
    public var order: DetectionOrder
    /// Cut large images into tiles, run each and merge (`TilingOptions`); nil: the whole image
    /// is one input, as in Darknet. `classes`, `maximumDetections` and `order` apply to the
    /// merged result.
    public var tiling: TilingOptions?
    /// Which of Darknet's commands YOLOv1's `[detection]` boxes are as (default: `darknet detect`'s,
    /// see `DetectionLayerBoxes`); the other heads ignore it.
    public var detectionLayerBoxes: DetectionLayerBoxes

    public init(threshold: Float = 0.5, hierThreshold: Float = 0.5, nmsThreshold: Float = 0.45, letterbox: Bool = true,
                maximumDetections: Int? = nil, classes: Set<Int>? = nil, order: DetectionOrder = .darknet,
                tiling: TilingOptions? = nil, detectionLayerBoxes: DetectionLayerBoxes = .darknetDetect) {
        self.threshold = threshold
        self.hierThreshold = hierThreshold
        self.nmsThreshold = nmsThreshold
        self.letterbox = letterbox
        self.maximumDetections = maximumDetections
        self.classes = classes
        self.order = order
        self.tiling = tiling
        self.detectionLayerBoxes = detectionLayerBoxes
    }

    /// YOLOv1's own command, `darknet yolo test`: the image stretched, threshold 0.2, NMS 0.4,
    /// boxes relative to the image (`DetectionLayerBoxes.yoloTest`).
    public static let yoloTest = DetectionOptions(threshold: 0.2, hierThreshold: 0, nmsThreshold: 0.4, letterbox: false,
                                                  detectionLayerBoxes: .yoloTest)

    /// Throws for values no detection can use: a NaN threshold, a negative
    /// `maximumDetections`, or invalid `tiling` (`TilingOptions.validate()`). Every `detect`
    /// checks its options first.
    public func validate() throws(ArgumentError) {
        try ArgumentError.require(!threshold.isNaN, "DetectionOptions.threshold", threshold, expected: "a number")
        try ArgumentError.require(!hierThreshold.isNaN, "DetectionOptions.hierThreshold", hierThreshold, expected: "a number")
        try ArgumentError.require(!nmsThreshold.isNaN, "DetectionOptions.nmsThreshold", nmsThreshold, expected: "a number")
        if let maximumDetections { try ArgumentError.require("DetectionOptions.maximumDetections", maximumDetections, atLeast: 0) }
        try tiling?.validate()
    }

    /// `detections` (in Darknet's order) filtered, capped and ordered as these options say.
    public func shape(_ detections: [Detection]) -> [Detection] {
        var kept = detections
        if let classes { kept.removeAll { !classes.contains($0.classIndex) } }
        var positions = Array(kept.indices)
        if order == .confidence || (maximumDetections.map { $0 < kept.count } ?? false) {
            positions.sort { a, b in kept[a].confidence != kept[b].confidence ? kept[a].confidence > kept[b].confidence : a < b }
        }
        if let maximumDetections, maximumDetections < positions.count {
            positions.removeLast(positions.count - max(0, maximumDetections))
        }
        if order == .darknet { positions.sort() }
        return positions.map { kept[$0] }
    }
}

extension [Detection] {
    /// The detections of a crop of a frame with `rect` moved into the frame's pixels.
    func offset(by region: PixelRegion?) -> [Detection] {
        guard let region, region.x != 0 || region.y != 0 else { return self }
        return map { d in
            let r = d.rect
            return Detection(classIndex: d.classIndex, label: d.label, confidence: d.confidence, objectness: d.objectness,
                             box: d.box, rect: PixelRect(left: r.left + region.x, top: r.top + region.y,
                                                         right: r.right + region.x, bottom: r.bottom + region.y),
                             uncertainty: d.uncertainty)
        }
    }
}
