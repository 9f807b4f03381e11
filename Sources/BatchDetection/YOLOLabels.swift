import Darknet
import Foundation

/// `--save-labels`: a YOLO label file beside each image, as AlexeyAB's `-save_labels` writes
/// it, so a model can pre-label a dataset.
///
/// One line per box: `class center_x center_y width height` (`%d %.4f %.4f %.4f %.4f`, AlexeyAB's
/// `%2.4f`), relative to the image, with the box's most probable class over the threshold
/// (the first on ties); a box found for several classes gives one line. An image without
/// detections gets an empty file (no objects, for training tools).
public enum YOLOLabels {
    /// The label file's text for one image's detections (Darknet's order, as `Detector` returns
    /// them: a box's classes are consecutive detections with the same `box`).
    public static func text(for detections: [Detection]) -> String {
        var best: [Detection] = []
        for d in detections {
            if let last = best.last, last.box == d.box {
                if d.confidence > last.confidence { best[best.count - 1] = d }
            } else {
                best.append(d)
            }
        }
        return best.map { d in
            String(format: "%d %.4f %.4f %.4f %.4f\n", d.classIndex, Double(d.box.x), Double(d.box.y),
                   Double(d.box.width), Double(d.box.height))
        }.joined()
    }

    /// `photos/a.jpg` → `photos/a.txt`: the extension of the last component replaced by `.txt`
    /// (added when there is none). Unlike AlexeyAB's `replace_image_to_label`, `images/` and
    /// `JPEGImages/` directories are not swapped for `labels/`: the file goes beside the image.
    public static func labelPath(forImage path: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[nameStart...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(path[..<dot]) + ".txt"
        }
        return path + ".txt"
    }

    /// Writes the label file of one image.
    /// - Returns: the label file's path.
    /// - Throws: `BatchOutputError.cannotWrite`, or `.labelWouldReplaceImage` for an image
    ///   whose own name ends in `.txt`.
    @discardableResult
    public static func write(_ detections: [Detection], forImage path: String) throws(BatchOutputError) -> String {
        let destination = labelPath(forImage: path)
        guard destination != path else { throw .labelWouldReplaceImage(path: path) }
        guard FileManager.default.createFile(atPath: destination, contents: Data(text(for: detections).utf8)) else {
            throw .cannotWrite(path: destination)
        }
        return destination
    }
}
