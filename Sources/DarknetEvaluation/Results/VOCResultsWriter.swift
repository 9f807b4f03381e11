import Darknet
import Foundation

/// `darknet detector valid`'s VOC files: one `<prefix><class name>.txt` per class in `folder`,
/// a line `image_id confidence xmin ymin xmax ymax` (`%s %f %f %f %f %f`) per detection, edges
/// 1-based as VOC's devkit reads them and clamped to `1...width`, `1...height`.
public struct VOCResultsWriter: DetectionWriter {
    private let files: [OutputFile]

    /// Creates `folder` and the class files (Darknet's prefix is `comp4_det_test_`).
    public init(folder: String, prefix: String = "comp4_det_test_", names: [String]) throws(EvaluationError) {
        try OutputFile.makeFolder(folder)
        var files: [OutputFile] = []
        for name in names { files.append(try OutputFile(path: folder + "/" + prefix + name + ".txt")) }
        self.files = files
    }

    /// The files' paths, class by class.
    public var paths: [String] { files.map(\.path) }

    public mutating func write(_ boxes: [BoxCandidate], image path: String, width: Int, height: Int) throws {
        let id = darknetImageID(path)
        for candidate in boxes {
            let b = ResultBox(candidate.box, origin: 1, width: width, height: height)
            for (k, probability) in candidate.probabilities.enumerated() where probability != 0 {
                try files[k].write(id + String(format: " %f %f %f %f %f\n", Double(probability), Double(b.left), Double(b.top),
                                               Double(b.right), Double(b.bottom)))
            }
        }
    }

    public mutating func finish() throws {
        for file in files { try file.close() }
    }
}
