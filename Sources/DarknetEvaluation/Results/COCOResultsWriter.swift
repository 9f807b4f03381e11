import Darknet
import Foundation

/// `darknet detector valid` with `eval=coco`: `folder/<name>.json` (Darknet's name is
/// `coco_results`), a JSON array with one `{"image_id":%d, "category_id":%d, "bbox":[x, y, w, h],
/// "score":%f}` per detection, boxes in pixels clamped to the image, category ids COCO's own
/// (class 0 is 1, class 79 is 90).
///
/// The image id is the file name's number (`000000397133.jpg` → 397133), or the number after
/// its last `_` (`COCO_val2014_000000000042.jpg` → 42, the original Darknet's rule); a name
/// without one is written as a JSON string (Darknet writes 0), so the file stays valid JSON that
/// names every image. An empty result is `[]`.
public struct COCOResultsWriter: DetectionWriter {
    /// COCO's category id of each of its 80 classes.
    public static let categoryIDs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27,
                                     28, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 46, 47, 48, 49, 50, 51, 52, 53,
                                     54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 67, 70, 72, 73, 74, 75, 76, 77, 78, 79, 80,
                                     81, 82, 84, 85, 86, 87, 88, 89, 90]

    private let file: OutputFile
    private var entries = 0

    /// Creates `folder` and the file.
    /// - Throws: `EvaluationError.cocoNeedsEightyClasses` unless `classes` is 80, `.cannotWrite`.
    public init(folder: String, name: String = "coco_results", classes: Int) throws(EvaluationError) {
        guard classes == Self.categoryIDs.count else { throw .cocoNeedsEightyClasses(classes: classes) }
        try OutputFile.makeFolder(folder)
        file = try OutputFile(path: folder + "/" + name + ".json")
        try file.write("[")
    }

    /// The file's path.
    public var path: String { file.path }

    public mutating func write(_ boxes: [BoxCandidate], image path: String, width: Int, height: Int) throws {
        let id = Self.imageID(path)
        for candidate in boxes {
            let b = ResultBox(candidate.box, origin: 0, width: width, height: height)
            for (k, probability) in candidate.probabilities.enumerated() where probability > 0 {
                let line = String(format: #"{"image_id":%@, "category_id":%d, "bbox":[%f, %f, %f, %f], "score":%f}"#, id,
                                  Self.categoryIDs[k], Double(b.left), Double(b.top), Double(b.right - b.left),
                                  Double(b.bottom - b.top), Double(probability))
                try file.write((entries == 0 ? "\n" : ",\n") + line)
                entries += 1
            }
        }
    }

    public mutating func finish() throws {
        try file.write("\n]\n")
        try file.close()
    }

    /// The `image_id` value for an image path: a number, or a JSON string.
    static func imageID(_ path: String) -> String {
        let name = darknetImageID(path)
        let digits = name.split(separator: "_", omittingEmptySubsequences: false).last ?? Substring(name)
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) { return String(number) }
        return jsonString(name)
    }

    private static func jsonString(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
