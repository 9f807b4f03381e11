/// What kind of source a path or URL names, which decides the default frame policy and
/// whether waits need network time-outs.
public enum VideoSourceKind: Sendable, Equatable, CustomStringConvertible {
    /// A file on disk (MP4, MKV, AVI, ...).
    case file
    /// Numbered images such as `frames/%04d.png`.
    case imageSequence
    /// A network URL (`rtsp://`, `http://`, `udp://`, `tcp://`, ...).
    case network

    /// The kind of `source`: a URL with a scheme other than `file:` is a network source, a path
    /// with a `%d`-style pattern an image sequence, anything else a file.
    public init(_ source: String) {
        if let range = source.range(of: "://"), !source[..<range.lowerBound].isEmpty,
           source[..<range.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
           source[..<range.lowerBound].lowercased() != "file" {
            self = .network
        } else if Self.hasFramePattern(source) {
            self = .imageSequence
        } else {
            self = .file
        }
    }

    /// `file`, `image sequence` or `network stream`.
    public var description: String {
        switch self {
        case .file: "file"
        case .imageSequence: "image sequence"
        case .network: "network stream"
        }
    }

    /// Whether `path` contains a printf-style frame number (`%d`, `%04d`).
    public static func hasFramePattern(_ path: String) -> Bool {
        var characters = Substring(path)
        while let percent = characters.firstIndex(of: "%") {
            var rest = characters[characters.index(after: percent)...]
            rest = rest.drop { $0.isNumber }
            if rest.first == "d" { return true }
            characters = rest
        }
        return false
    }
}
