/// A remark about the cfg that is not an error, e.g. a key nobody knows.
///
/// Loading reports them twice: in `NetworkSpec.diagnostics`, and as notes in the message of a
/// `PlanError` or `WeightsError` a later step throws (a misspelt `filtres=` is the usual cause
/// of a shape or weights mismatch). `PlanOptions.rejectsUnknownKeys` makes them errors.
public struct CfgDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What kind of remark.
    public enum Kind: Sendable, Equatable {
        /// A key no layer of this kind reads (ignored).
        case unknownKey
        /// A key given twice in one section (the first value is used).
        case repeatedKey
        /// A value read the lenient way AlexeyAB's Darknet reads it (`anchors=61,45  61,45`, or a
        /// `mask` past `num`): how it was read.
        case readLeniently(String)
    }

    public let file: String
    public let line: Int
    public let key: String
    /// The section's name as written (`convolutional`, `conv`, ...).
    public let section: String
    public let kind: Kind

    public init(file: String, line: Int, key: String, section: String, kind: Kind) {
        self.file = file
        self.line = line
        self.key = key
        self.section = section
        self.kind = kind
    }

    /// What the remark says, without the location.
    public var message: String {
        switch kind {
        case .unknownKey: "unknown key in [\(section)]; ignored"
        case .repeatedKey: "repeated key in [\(section)]; the first value is used"
        case .readLeniently(let how): "read in [\(section)] as AlexeyAB's Darknet reads it: \(how)"
        }
    }

    /// `key.cfg:27: 'filtres': unknown key in [convolutional]; ignored`
    public var description: String { FileLocation(file: file, line: line, key: key).describe(message) }

    /// The error a strict load throws for this remark.
    var error: CfgError {
        CfgError(file: file, line: line, key: key, reason: .rejectedKey(kind, section: section))
    }
}

extension [CfgDiagnostic] {
    /// Most notes an error message lists (the rest are counted).
    static let listedNotes = 3

    /// `" (note: a.cfg:27: 'filtres': unknown key ...; note: ...)"`, or "" without diagnostics:
    /// appended to a loading error's one-line message.
    var noteSuffix: String {
        guard !isEmpty else { return "" }
        var notes = prefix(Self.listedNotes).map { "note: \($0)" }
        if count > Self.listedNotes { notes.append("and \(count - Self.listedNotes) more notes") }
        return " (" + notes.joined(separator: "; ") + ")"
    }
}

extension NetworkSpec {
    /// Throws the first diagnostic as an error when `options.rejectsUnknownKeys` is set.
    public func checkKeys(_ options: PlanOptions) throws(CfgError) {
        if options.rejectsUnknownKeys, let first = diagnostics.first { throw first.error }
    }
}
