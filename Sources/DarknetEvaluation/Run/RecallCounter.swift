import Darknet
import Foundation

/// The running totals `darknet detector recall` prints after each image.
public struct RecallLine: Sendable, Equatable, Codable {
    /// Images so far.
    public var images: Int
    /// Objects whose best proposal overlaps them by IoU > 0.5.
    public var found: Int
    /// Labelled objects.
    public var truths: Int
    /// Boxes with objectness > 0.001 after objectness NMS.
    public var proposals: Int
    /// Sum of each object's best IoU with a proposal.
    public var intersectionSum: Float

    /// Darknet's line: `%5d %5d %5d\tRPs/Img: %.2f\tIOU: %.2f%%\tRecall:%.2f%%` (image index,
    /// found, objects, proposals per image, mean best IoU and recall in percent; `-nan` before
    /// the first object, as glibc prints it).
    public var darknetText: String {
        let perImage = Float(proposals) / Float(images)
        let iou = truths > 0 ? String(format: "%.2f", Double(intersectionSum * 100 / Float(truths))) : "-nan"
        let recall = truths > 0 ? String(format: "%.2f", 100.0 * Double(found) / Double(truths)) : "-nan"
        return String(format: "%5d %5d %5d\tRPs/Img: %.2f\tIOU: ", images - 1, found, truths, Double(perImage))
            + iou + "%\tRecall:" + recall + "%"
    }
}

/// `validate_detector_recall`'s counting: candidates at 0.001, suppressed by objectness
/// (`do_nms_obj` at 0.4), each object's best IoU with any remaining box above the threshold.
struct RecallCounter {
    static let threshold: Float = 0.001
    static let nmsThreshold: Float = 0.4
    static let iouThreshold: Float = 0.5

    private(set) var line = RecallLine(images: 0, found: 0, truths: 0, proposals: 0, intersectionSum: 0)

    mutating func add(_ candidates: [BoxCandidate], truths: [GroundTruthBox]) -> RecallLine {
        let boxes = Self.suppressedByObjectness(candidates)
        line.images += 1
        line.proposals += boxes.filter { $0.objectness > Self.threshold }.count
        for truth in truths {
            line.truths += 1
            var best: Float = 0
            for b in boxes where b.objectness > Self.threshold {
                let iou = b.box.alexeyABIntersectionOverUnion(truth.box)
                if iou > best { best = iou }
            }
            line.intersectionSum += best
            if best > Self.iouThreshold { line.found += 1 }
        }
        return line
    }

    /// AlexeyAB's `do_nms_obj`: zero-objectness boxes swapped to the end and dropped (its swap
    /// loop, which reorders the others), the rest ranked by objectness (stable, as glibc's
    /// `qsort` does), and each kept box zeroes the objectness of later ones overlapping it by
    /// IoU greater than `nmsThreshold`.
    static func suppressedByObjectness(_ candidates: [BoxCandidate]) -> [BoxCandidate] {
        var boxes = candidates
        NonMaximumSuppression.removeZeroObjectness(&boxes)
        boxes = boxes.enumerated().sorted { a, b in
            a.element.objectness != b.element.objectness ? a.element.objectness > b.element.objectness : a.offset < b.offset
        }.map(\.element)
        for i in boxes.indices where boxes[i].objectness != 0 {
            for j in (i + 1)..<boxes.count where boxes[j].objectness != 0
                && boxes[i].box.alexeyABIntersectionOverUnion(boxes[j].box) > nmsThreshold {
                boxes[j].objectness = 0
            }
        }
        return boxes
    }
}
