/// Splits `.cfg` text into sections of `key=value` entries, keeping line numbers.
///
/// Accepts what Darknet's own files contain and what editors add to them: `#` and `;`
/// comments (whole-line and, after a value, trailing), blank lines, CRLF or CR line ends,
/// a UTF-8 byte-order mark, tabs and spaces around `=`. Section names are not interpreted here.
public enum CfgParser {
    /// Parses raw bytes (UTF-8, optionally with a BOM).
    public static func parse(bytes: [UInt8], file: String) throws(CfgError) -> CfgDocument {
        do throws(CfgError) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CfgError(file: file, line: nil, reason: .notText(byteOffset: firstInvalidUTF8Offset(bytes)))
            }
            return try parse(text: text, file: file)
        } catch var error {
            if let guess = FileSignature.guess(bytes), guess != FileSignature.cfg { error.looksLike = guess }
            throw error
        }
    }

    /// Parses text already in memory.
    public static func parse(text: String, file: String) throws(CfgError) -> CfgDocument {
        var sections: [CfgSection] = []
        var current: (name: String, line: Int, entries: [CfgEntry])?
        var lineNumber = 0
        for rawLine in lines(of: text) {
            lineNumber += 1
            var line = Substring(rawLine)
            if lineNumber == 1, line.first == "\u{FEFF}" { line = line.dropFirst() }
            if line.contains("\0") {
                let offset = text.utf8.distance(from: text.utf8.startIndex, to: text.utf8.firstIndex(of: 0)!)
                throw CfgError(file: file, line: lineNumber, reason: .notText(byteOffset: offset))
            }
            let content = stripComment(line).trimmingWhitespace()
            if content.isEmpty { continue }
            if content.first == "[" {
                guard content.last == "]", content.count > 2 else {
                    throw CfgError(file: file, line: lineNumber, reason: .malformedSectionHeader(String(content)))
                }
                let name = content.dropFirst().dropLast().trimmingWhitespace()
                guard !name.isEmpty, !name.contains("[") , !name.contains("]") else {
                    throw CfgError(file: file, line: lineNumber, reason: .malformedSectionHeader(String(content)))
                }
                if let done = current { sections.append(CfgSection(name: done.name, line: done.line, entries: done.entries)) }
                current = (String(name), lineNumber, [])
                continue
            }
            guard let equals = content.firstIndex(of: "=") else {
                throw CfgError(file: file, line: lineNumber, reason: .malformedLine(String(content)))
            }
            let key = content[..<equals].trimmingWhitespace()
            let value = content[content.index(after: equals)...].trimmingWhitespace()
            guard !key.isEmpty, !key.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw CfgError(file: file, line: lineNumber, reason: .malformedLine(String(content)))
            }
            guard current != nil else {
                throw CfgError(file: file, line: lineNumber, key: String(key), reason: .keyOutsideSection)
            }
            current!.entries.append(CfgEntry(key: String(key), value: String(value), line: lineNumber))
        }
        if let done = current { sections.append(CfgSection(name: done.name, line: done.line, entries: done.entries)) }
        guard !sections.isEmpty else { throw CfgError(file: file, line: nil, reason: .empty) }
        return CfgDocument(file: file, sections: sections)
    }

    /// Splits on LF, CRLF or a lone CR (a Swift `Character` holds CRLF as one newline).
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    }

    /// Drops what follows a `#` or `;`.
    private static func stripComment(_ line: Substring) -> Substring {
        guard let mark = line.firstIndex(where: { $0 == "#" || $0 == ";" }) else { return line }
        return line[..<mark]
    }

    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += String(scalar).utf8.count
            case .emptyInput: return offset
            case .error: return offset
            }
        }
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var s = self
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
