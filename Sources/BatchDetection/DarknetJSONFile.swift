import CommandLineKit
import Darknet
import Foundation

/// The `--out-json` file: AlexeyAB's `darknet detector test -out` format, written as the batch
/// goes. A JSON array with one entry per input image, in input order:
///
///     {"frame_id": 1, "filename": "data/dog.jpg", "objects": [
///       {"class_id": 16, "name": "dog", "relative_coordinates": {"center_x": 0.288, "center_y": 0.654,
///        "width": 0.310, "height": 0.574}, "confidence": 0.996}, ...]}
///
/// One object per (box, class) over the threshold, in Darknet's order; numbers with six
/// decimals (`%f`, as Darknet), `null` for a non-finite value. An image that failed gets
/// `{"frame_id": n, "filename": ..., "error": "..."}` instead (no `objects`), so `frame_id` is
/// always the image's position in the input, from 1.
public final class DarknetJSONFile {
    /// The file written.
    public let path: String
    private let handle: FileHandle
    private var entries = 0

    /// Creates (or truncates) the file and writes the opening bracket.
    /// - Throws: `BatchOutputError.cannotWrite` naming the file.
    public init(path: String) throws(BatchOutputError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { throw .cannotWrite(path: path) }
        self.handle = handle
        try write("[\n")
    }

    /// Appends the entry of one image.
    public func append(_ item: BatchItem) throws(BatchOutputError) {
        let entry = switch item.result {
        case .success(let found): Self.entry(frameID: item.index + 1, filename: item.path, detections: found.detections)
        case .failure(let error): Self.errorEntry(frameID: item.index + 1, filename: item.path, message: String(describing: error))
        }
        try write((entries == 0 ? "" : ",\n") + entry)
        entries += 1
    }

    /// Writes the closing bracket and closes the file.
    public func close() throws(BatchOutputError) {
        try write((entries == 0 ? "" : "\n") + "]\n")
        do { try handle.close() } catch { throw .cannotWrite(path: path) }
    }

    /// One image's entry.
    public static func entry(frameID: Int, filename: String, detections: [Detection]) -> String {
        let objects = detections.map { d in
            let box = d.box
            return #"  {"class_id": \#(d.classIndex), "name": \#(jsonStringLiteral(d.label)), "relative_coordinates": {"#
                + #""center_x": \#(number(box.x)), "center_y": \#(number(box.y)), "width": \#(number(box.width)), "#
                + #""height": \#(number(box.height))}, "confidence": \#(number(d.confidence))}"#
        }
        let list = objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]"
        return #"{"frame_id": \#(frameID), "filename": \#(jsonStringLiteral(filename)), "objects": \#(list)}"#
    }

    /// The entry of an image that failed.
    public static func errorEntry(frameID: Int, filename: String, message: String) -> String {
        #"{"frame_id": \#(frameID), "filename": \#(jsonStringLiteral(filename)), "error": \#(jsonStringLiteral(message))}"#
    }

    /// `%f` (six decimals), or `null` where JSON has no number (NaN, infinities).
    static func number(_ value: Float) -> String {
        value.isFinite ? String(format: "%f", Double(value)) : "null"
    }

    private func write(_ text: String) throws(BatchOutputError) {
        do { try handle.write(contentsOf: Data(text.utf8)) } catch { throw .cannotWrite(path: path) }
    }
}
