import Darknet
import Foundation

/// A YOLO label file that cannot be scored: where and why.
public struct LabelFileError: DarknetError, Equatable, Sendable {
    /// What is wrong.
    public enum Reason: Equatable, Sendable {
        /// The bytes are not UTF-8 text.
        case notText
        /// A line that is not `class x_center y_center width height`.
        case malformedLine(String)
        /// The class is not an integer in `0..<classes`.
        case classOutOfRange(value: String, classes: Int)
        /// A coordinate that is NaN or infinite (`field` names it).
        case notFinite(field: String, value: String)
        /// A negative width or height.
        case negativeSize(field: String, value: String)
    }

    /// The label file.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// What is wrong.
    public let reason: Reason

    public init(file: String, line: Int, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let message = switch reason {
        case .notText: "not UTF-8 text"
        case .malformedLine(let text): "expected 'class x_center y_center width height', found \(quotedExcerpt(text))"
        case .classOutOfRange(let value, let classes):
            "class '\(value)' is not a class index of the network (0...\(classes - 1))"
        case .notFinite(let field, let value): "\(field) is '\(value)', expected a finite number"
        case .negativeSize(let field, let value): "\(field) is \(value), expected a size >= 0"
        }
        return "\(file):\(line): \(message)"
    }

}
