import Foundation

/// A `multipart/form-data` body (RFC 7578) split into its parts, without copying their contents.
///
/// The parser is strict where clients agree (CRLF line ends, the `--boundary` delimiters, a
/// `Content-Disposition: form-data; name=...` in every part, the closing `--boundary--`) and
/// lenient where they differ (a preamble and an epilogue, whitespace after a delimiter, header
/// names in any case, extra headers). A truncated or malformed body is a `FormError` naming the
/// byte offset; nothing is read past `body`.
struct MultipartForm: Sendable {
    /// One part: its form field name, the file name a file field carries, its `Content-Type` and
    /// where its contents lie in the body.
    struct Part: Sendable, Equatable {
        let name: String
        let filename: String?
        let contentType: String?
        let contents: Range<Int>
    }

    /// Parts a form may have, and header bytes a part may have.
    static let maximumParts = 64
    static let maximumHeaderBytes = 8 << 10

    let parts: [Part]

    /// Splits `body` by `boundary` (the `Content-Type`'s `boundary` parameter).
    init(body: [UInt8], boundary: String) throws(FormError) {
        let boundaryBytes = Array(boundary.utf8)
        guard (1...200).contains(boundaryBytes.count) else {
            throw .malformedContentType("multipart/form-data; boundary=\(boundary)",
                                        reason: "a boundary has 1 to 200 characters, this one \(boundaryBytes.count)")
        }
        let delimiter = Array("--".utf8) + boundaryBytes
        let separator = Array("\r\n".utf8) + delimiter
        var position: Int
        if body.starts(with: delimiter) {
            position = delimiter.count
        } else if let found = Self.find(separator, in: body, from: 0) {
            position = found + separator.count
        } else {
            throw .malformedBody(offset: 0, expected: "the boundary '--\(boundary)'")
        }
        var parts: [Part] = []
        while true {
            if Self.matches(Array("--".utf8), in: body, at: position) { break }   // the closing delimiter
            position = try Self.skipLineEnd(body, from: position, after: "the boundary")
            guard parts.count < Self.maximumParts else { throw .tooManyParts(limit: Self.maximumParts) }
            let (headers, contentStart) = try Self.headers(body, from: position)
            guard let end = Self.find(separator, in: body, from: contentStart) else {
                throw .malformedBody(offset: body.count, expected: "the boundary '--\(boundary)' after the part's contents (the body is truncated)")
            }
            parts.append(try Self.part(headers: headers, at: position, contents: contentStart..<end))
            position = end + separator.count
        }
        self.parts = parts
    }

    /// The first part called `name`.
    func part(named name: String) -> Part? {
        parts.first { $0.name == name }
    }

    /// A part's headers (names lower case) and the offset where its contents start.
    private static func headers(_ body: [UInt8], from start: Int) throws(FormError) -> (headers: [(String, String, Int)], contents: Int) {
        var headers: [(String, String, Int)] = []
        var position = start
        while true {
            guard position - start <= maximumHeaderBytes else {
                throw .malformedBody(offset: position, expected: "the end of the part's headers within \(maximumHeaderBytes) bytes")
            }
            guard let lineEnd = find(Array("\r\n".utf8), in: body, from: position) else {
                throw .malformedBody(offset: body.count, expected: "a header line ending in CRLF (the body is truncated)")
            }
            if lineEnd == position { return (headers, lineEnd + 2) }
            let line = body[position..<lineEnd]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > position else {
                throw .malformedBody(offset: position, expected: "a part header 'Name: value'")
            }
            guard let name = String(validating: body[position..<colon], as: UTF8.self),
                  let value = String(validating: body[(colon + 1)..<lineEnd], as: UTF8.self) else {
                throw .malformedBody(offset: position, expected: "a part header in UTF-8")
            }
            headers.append((name.lowercased(), value.trimmingCharacters(in: .whitespaces), position))
            position = lineEnd + 2
        }
    }

    /// The part described by `headers` (which start at `offset`).
    private static func part(headers: [(String, String, Int)], at offset: Int, contents: Range<Int>) throws(FormError) -> Part {
        guard let (_, disposition, dispositionOffset) = headers.first(where: { $0.0 == "content-disposition" }) else {
            throw .malformedBody(offset: offset, expected: "a 'Content-Disposition: form-data; name=...' header in the part")
        }
        let parsed: MediaType
        do {
            parsed = try MediaType(parsing: disposition)
        } catch {
            throw .malformedBody(offset: dispositionOffset, expected: "a valid Content-Disposition (\(error))")
        }
        guard parsed.type == "form-data", let name = parsed.parameter("name") else {
            throw .malformedBody(offset: dispositionOffset, expected: "'Content-Disposition: form-data; name=...'")
        }
        return Part(name: name, filename: parsed.parameter("filename"),
                    contentType: headers.first { $0.0 == "content-type" }?.1, contents: contents)
    }

    /// Past optional spaces and tabs and the CRLF that end a delimiter line.
    private static func skipLineEnd(_ body: [UInt8], from start: Int, after what: String) throws(FormError) -> Int {
        var position = start
        while position < body.count, body[position] == UInt8(ascii: " ") || body[position] == UInt8(ascii: "\t") { position += 1 }
        guard matches(Array("\r\n".utf8), in: body, at: position) else {
            throw .malformedBody(offset: position, expected: "CRLF after \(what)" + (position >= body.count ? " (the body is truncated)" : ""))
        }
        return position + 2
    }

    private static func matches(_ needle: [UInt8], in body: [UInt8], at position: Int) -> Bool {
        position <= body.count - needle.count && body[position..<(position + needle.count)].elementsEqual(needle)
    }

    /// The offset of the first `needle` in `body` at or after `start`: `memchr` finds each
    /// candidate first byte, `memcmp` checks the rest.
    static func find(_ needle: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        guard start >= 0, !needle.isEmpty, body.count - start >= needle.count else { return nil }
        return body.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                let base = haystack.baseAddress!
                let last = haystack.count - pattern.count   // the last offset a match can start at
                var offset = start
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else { return nil }
                    let candidate = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + candidate, pattern.baseAddress!, pattern.count) == 0 { return candidate }
                    offset = candidate + 1
                }
                return nil
            }
        }
    }
}
