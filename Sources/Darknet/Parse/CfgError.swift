/// An error in a `.cfg` file: where it is and what was expected.
public struct CfgError: DarknetError, Equatable, Sendable {
    /// What is wrong.
    public enum Reason: Equatable, Sendable {
        /// The file has no sections at all.
        case empty
        /// The bytes are not UTF-8 text (offset of the first bad byte).
        case notText(byteOffset: Int)
        /// A `key=value` line appears before the first `[section]`.
        case keyOutsideSection
        /// A line is neither a `[section]` header, a comment nor `key=value`.
        case malformedLine(String)
        /// A `[section]` header is not closed or has an empty name.
        case malformedSectionHeader(String)
        /// A section name this library does not know.
        case unknownSection(String)
        /// The first section is not `[net]` / `[network]`.
        case missingNetSection
        /// The file has a `[net]` section but no layers after it.
        case noLayers
        /// A key's value cannot be read as what the key needs.
        case invalidValue(value: String, expected: String)
        /// A key that must be present is missing.
        case missingKey
        /// A known feature this library does not implement.
        case unsupported(String)
        /// An unknown or repeated key, an error with `PlanOptions.rejectsUnknownKeys`
        /// (the diagnostic's message).
        case rejectedKey(CfgDiagnostic.Kind, section: String)
    }

    /// The file (path or name given to the parser).
    public let file: String
    /// 1-based line number, when the error has a location.
    public let line: Int?
    /// The key involved, if any.
    public let key: String?
    /// What is wrong.
    public let reason: Reason
    /// What the file's first bytes look like when they are not a `.cfg` at all ("a Darknet
    /// .weights file", "a JPEG image", "an HTML page ...").
    public var looksLike: String?

    public init(file: String, line: Int?, key: String? = nil, reason: Reason) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    public var description: String {
        let instead = looksLike.map { ": not a .cfg but \($0)" } ?? ""
        return FileLocation(file: file, line: line, key: key).describe(reason.message + instead)
    }
}

extension CfgError.Reason {
    var message: String {
        switch self {
        case .empty: "the file holds no sections"
        case .notText(let offset): "not UTF-8 text (bad byte at offset \(offset))"
        case .keyOutsideSection: "a key=value line before the first [section]"
        case .malformedLine(let text): "expected 'key=value', '[section]' or a comment, found \(quotedExcerpt(text))"
        case .malformedSectionHeader(let text): "malformed section header \(quotedExcerpt(text))"
        case .unknownSection(let name): "unknown section [\(name)]"
        case .missingNetSection: "the first section must be [net] or [network]"
        case .noLayers: "no layers after [net]"
        case .invalidValue(let value, let expected): "invalid value \(quotedExcerpt(value)), expected \(expected)"
        case .missingKey: "required key is missing"
        case .unsupported(let what): "not supported: \(what)"
        case .rejectedKey(.unknownKey, let section): "unknown key in [\(section)] (an error with strict checking)"
        case .rejectedKey(.repeatedKey, let section): "repeated key in [\(section)] (an error with strict checking)"
        case .rejectedKey(.readLeniently, let section):
            "a value in [\(section)] only AlexeyAB's lenient reading accepts (an error with strict checking)"
        }
    }
}
