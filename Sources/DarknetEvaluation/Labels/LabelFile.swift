import Darknet
import Foundation

/// A YOLO label file (`class x_center y_center width height` per line, relative to the image),
/// read strictly: Darknet's `read_boxes` stops silently at the first line `fscanf` cannot read
/// and indexes its arrays with any class number; here every such line is an error naming the
/// file and line.
///
/// Blank lines are skipped; fields are separated by spaces or tabs; the class is an integer in
/// `0..<classes`, the four numbers finite, the sizes not negative. Boxes reaching outside the
/// image, and empty ones, are kept as written (Darknet scores them so) with a ``LabelWarning``.
public struct LabelFile: Sendable, Equatable {
    /// The file's path.
    public let path: String
    /// The boxes in file order.
    public let boxes: [GroundTruthBox]
    /// Lines scored as written that are probably mistakes.
    public let warnings: [LabelWarning]

    /// Reads the label file at `path` for a network of `classes` classes.
    /// - Throws: `FileError` (missing, unreadable), `LabelFileError`.
    public init(path: String, classes: Int) throws {
        try self.init(bytes: try FileError.contents(of: URL(fileURLWithPath: path)), path: path, classes: classes)
    }

    /// Reads label-file bytes as if they were the file at `path` (which names it in errors).
    public init(bytes: [UInt8], path: String, classes: Int) throws(LabelFileError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LabelFileError(file: path, line: 1, reason: .notText)
        }
        var boxes: [GroundTruthBox] = []
        var warnings: [LabelWarning] = []
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            let fields = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" })
            if fields.isEmpty { continue }
            let box = try Self.box(fields, line: number, text: rawLine, path: path, classes: classes)
            if box.box.width == 0 || box.box.height == 0 {
                warnings.append(LabelWarning(file: path, line: number, kind: .empty))
            } else if !Self.isInsideImage(box.box) {
                warnings.append(LabelWarning(file: path, line: number, kind: .outsideImage))
            }
            boxes.append(box)
        }
        self.path = path
        self.boxes = boxes
        self.warnings = warnings
    }

    private static func box(_ fields: [Substring], line: Int, text: Substring, path: String,
                            classes: Int) throws(LabelFileError) -> GroundTruthBox {
        func fail(_ reason: LabelFileError.Reason) -> LabelFileError { LabelFileError(file: path, line: line, reason: reason) }
        guard fields.count == 5 else { throw fail(.malformedLine(String(text))) }
        guard let classIndex = Int(fields[0]) else {
            throw Float(fields[0]) != nil ? fail(.classOutOfRange(value: String(fields[0]), classes: classes))
                                          : fail(.malformedLine(String(text)))
        }
        guard (0..<classes).contains(classIndex) else { throw fail(.classOutOfRange(value: String(fields[0]), classes: classes)) }
        var values: [Float] = []
        for (name, field) in zip(["x_center", "y_center", "width", "height"], fields.dropFirst()) {
            guard let value = Float(field) else { throw fail(.malformedLine(String(text))) }
            guard value.isFinite else { throw fail(.notFinite(field: name, value: String(field))) }
            if name == "width" || name == "height", value < 0 { throw fail(.negativeSize(field: name, value: String(field))) }
            values.append(value)
        }
        return GroundTruthBox(classIndex: classIndex,
                              box: RelativeBox(x: values[0], y: values[1], width: values[2], height: values[3]), line: line)
    }

    /// Whether the box's edges lie within the image (with a margin for the rounding of the
    /// six decimals labelling tools write).
    static func isInsideImage(_ box: RelativeBox) -> Bool {
        let margin: Float = 1e-4
        return box.x - box.width / 2 >= -margin && box.x + box.width / 2 <= 1 + margin
            && box.y - box.height / 2 >= -margin && box.y + box.height / 2 <= 1 + margin
    }
}
