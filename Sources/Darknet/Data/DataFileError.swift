import Foundation

/// A `.data` file that cannot be used: where it is and what was expected.
public struct DataFileError: DarknetError, Equatable, Sendable {
    /// What is wrong.
    public enum Reason: Equatable, Sendable {
        /// The bytes are not UTF-8 text.
        case notText
        /// A line that is neither `key = value`, a comment nor blank.
        case malformedLine(String)
        /// A value that cannot be read as what the key needs.
        case invalidValue(value: String, expected: String)
        /// A path (`value`) that exists in none of the places tried (see `DataFile`).
        case fileNotFound(value: String, tried: [String])
        /// `classes=` disagrees with the network the cfg describes.
        case classCountMismatch(classes: Int, cfg: String, networkClasses: Int, what: String)
    }

    /// The `.data` file.
    public let file: String
    /// 1-based line, when known.
    public let line: Int?
    /// The key involved, if any.
    public let key: String?
    /// What is wrong.
    public let reason: Reason

    public var description: String { FileLocation(file: file, line: line, key: key).describe(reason.message) }

    /// An error in `file`, at `line` and `key` when known.
    package init(file: String, line: Int?, key: String?, reason: Reason) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }
}

extension DataFileError.Reason {
    var message: String {
        switch self {
        case .notText: "not UTF-8 text"
        case .malformedLine(let text): "expected 'key = value' or a comment, found \(quotedExcerpt(text))"
        case .invalidValue(let value, let expected): "invalid value '\(value)', expected \(expected)"
        case .fileNotFound(let value, let tried):
            "'\(value)' not found (tried \(tried.joined(separator: ", ")))"
        case .classCountMismatch(let classes, let cfg, let networkClasses, let what):
            "classes=\(classes), but \(cfg) has \(networkClasses) \(what): the .data file and the cfg do not belong together"
        }
    }
}
