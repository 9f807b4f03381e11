import Foundation

extension MeanAveragePrecisionReport {
    /// The lines AlexeyAB's `darknet detector map` prints for these results, character for
    /// character (its spacing and trailing blanks included; an undefined precision, recall or
    /// F1 prints as glibc prints C's NaN on x86-64, `-nan`), then two lines Darknet does not
    /// print: how many classes had labelled objects and the mAP over those classes only
    /// (`meanAveragePrecisionOverClassesWithObjects`), and COCO's mAP@[.5:.95].
    public var darknetText: String {
        var text = "\n detections_count = \(detections), unique_truth_count = \(truths)  \n"
        for c in classes {
            text += "class_id = \(c.classIndex), name = \(c.name), ap = " + Self.format("%2.2f", c.averagePrecision * 100)
                + "%   \t (TP = \(c.truePositives), FP = \(c.falsePositives)) \n"
        }
        let threshold = Double(options.confidenceThreshold)
        text += "\n for conf_thresh = " + Self.format("%1.2f", threshold) + ", precision = " + Self.format("%1.2f", precision)
            + ", recall = " + Self.format("%1.2f", recall) + ", F1-score = " + Self.format("%1.2f", f1Score) + " \n"
        text += " for conf_thresh = " + Self.format("%0.2f", threshold)
            + ", TP = \(truePositives), FP = \(falsePositives), FN = \(falseNegatives), average IoU = "
            + Self.format("%2.2f", Double(averageIoU * 100)) + " % \n"
        text += "\n IoU threshold = " + Self.format("%2.0f", Double(options.iouThreshold * 100)) + " %, "
        text += options.points > 0 ? "used \(options.points) Recall-points \n" : "used Area-Under-Curve for each unique Recall \n"
        text += " mean average precision (mAP@" + Self.format("%0.2f", Double(options.iouThreshold)) + ") = "
            + Self.format("%f", meanAveragePrecision) + ", or " + Self.format("%2.2f", meanAveragePrecision * 100) + " % \n"
        text += " mean average precision (mAP@" + Self.format("%0.2f", Double(options.iouThreshold)) + ") over the \(classesWithObjects)"
            + " of \(classes.count) classes with labelled objects = "
        if let scored = meanAveragePrecisionOverClassesWithObjects {
            text += Self.format("%f", scored) + ", or " + Self.format("%2.2f", scored * 100) + " % \n"
        } else {
            text += "none (no labelled objects) \n"
        }
        text += " COCO mean average precision (mAP@[.50:.95], 101 recall points) = "
        if let coco = cocoMeanAveragePrecision {
            text += Self.format("%f", coco) + ", or " + Self.format("%2.2f", coco * 100) + " % \n"
        } else {
            text += "none (no labelled objects) \n"
        }
        return text
    }

    /// `value` as C's `printf(format, value)` prints a double; nil as glibc prints x86-64's NaN.
    static func format(_ format: String, _ value: Double) -> String {
        String(format: format, value)
    }

    static func format(_ format: String, _ value: Float?) -> String {
        value.map { String(format: format, Double($0)) } ?? "-nan"
    }
}
