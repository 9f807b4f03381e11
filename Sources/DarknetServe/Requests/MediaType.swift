/// A `Content-Type` (or `Content-Disposition`) header value: a lower-cased type and its
/// `; name=value` parameters (names lower-cased, quoted values unquoted), as RFC 9110 writes it.
struct MediaType: Equatable, Sendable {
    /// `multipart/form-data`, `form-data`, ... (lower case).
    let type: String
    /// Parameters in order; names lower case.
    let parameters: [(name: String, value: String)]

    static func == (a: MediaType, b: MediaType) -> Bool {
        a.type == b.type && a.parameters.elementsEqual(b.parameters) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The first parameter called `name` (lower case).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// Parses `text`; `reason` in the thrown error says what was wrong.
    init(parsing text: String) throws(FormError) {
        var scalars = Substring(text).unicodeScalars[...]
        func fail(_ reason: String) -> FormError { .malformedContentType(text, reason: reason) }
        let type = Self.token(&scalars)
        guard !type.isEmpty else { throw fail("no media type") }
        self.type = type.lowercased()
        var parameters: [(String, String)] = []
        while true {
            Self.skipSpaces(&scalars)
            guard let next = scalars.first else { break }
            guard next == ";" else { throw fail("expected ';' before '\(String(scalars.prefix(16)))'") }
            scalars.removeFirst()
            Self.skipSpaces(&scalars)
            if scalars.isEmpty { break }   // a trailing ';' is common and harmless
            let name = Self.token(&scalars)
            guard !name.isEmpty else { throw fail("expected a parameter name") }
            Self.skipSpaces(&scalars)
            guard scalars.first == "=" else { throw fail("parameter '\(name)' has no '=value'") }
            scalars.removeFirst()
            Self.skipSpaces(&scalars)
            let value: String
            if scalars.first == "\"" {
                scalars.removeFirst()
                var unquoted = String.UnicodeScalarView()
                var closed = false
                while let scalar = scalars.popFirst() {
                    if scalar == "\"" { closed = true; break }
                    if scalar == "\\", let escaped = scalars.popFirst() { unquoted.append(escaped) } else { unquoted.append(scalar) }
                }
                guard closed else { throw fail("parameter '\(name)' has an unclosed quote") }
                value = String(unquoted)
            } else {
                value = Self.value(&scalars)
            }
            parameters.append((name.lowercased(), value))
        }
        self.parameters = parameters
    }

    /// Characters up to a separator (`;`, `=`, `"`, whitespace or a control character).
    private static func token(_ scalars: inout Substring.UnicodeScalarView) -> String {
        let end = scalars.firstIndex { $0 == ";" || $0 == "=" || $0 == "\"" || $0.value <= 0x20 || $0.value == 0x7F }
            ?? scalars.endIndex
        let token = String(scalars[..<end])
        scalars = scalars[end...]
        return token
    }

    /// An unquoted value: characters up to `;`, whitespace or a control character (lenient: `=`
    /// and `/`, which some clients leave unquoted in a boundary, are kept).
    private static func value(_ scalars: inout Substring.UnicodeScalarView) -> String {
        let end = scalars.firstIndex { $0 == ";" || $0.value <= 0x20 || $0.value == 0x7F } ?? scalars.endIndex
        let value = String(scalars[..<end])
        scalars = scalars[end...]
        return value
    }

    private static func skipSpaces(_ scalars: inout Substring.UnicodeScalarView) {
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    }
}
