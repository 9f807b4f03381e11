/// What a file's first bytes say it is, for an error about a file given in another's place
/// (the `.weights` as the `.cfg`, a web page saved as the weights): "an HTML page", "a JPEG
/// image", "a Darknet .cfg", ... Nil when the bytes say nothing known.
package enum FileSignature {
    /// The guess for a Darknet `.cfg`.
    package static let cfg = "a Darknet .cfg"

    /// The bytes read to guess.
    package static let prefixLength = 512

    /// A guess from the first bytes of a file (`prefixLength` are enough).
    package static func guess(_ bytes: some Collection<UInt8>) -> String? {
        let head = Array(bytes.prefix(prefixLength))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
        if starts(Array("GIF8".utf8)) { return "a GIF image" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "a WebP image" }
        if starts(Array("ftyp".utf8), at: 4) { return "an MP4, MOV, HEIC or AVIF file" }
        if starts([0x1F, 0x8B]) { return "a gzip archive (unpack it first)" }
        if starts(Array("PK".utf8) + [3, 4]) { return "a ZIP archive (unpack it first)" }
        if starts(Array("7z".utf8) + [0xBC, 0xAF]) { return "a 7-Zip archive (unpack it first)" }
        if isDarknetWeightsHeader(head) { return "a Darknet .weights file" }
        guard !head.contains(0) else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(64).lowercased()
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.hasPrefix("<?xml") || start.hasPrefix("<head") {
            return "an HTML page (a download that returned a web page?)"
        }
        if text.contains("[net]") || text.contains("[network]") { return cfg }
        return nil
    }

    /// Darknet's header: major 0, minor 1 or 2 (or 1000 and above, transposed), a small revision.
    private static func isDarknetWeightsHeader(_ head: [UInt8]) -> Bool {
        guard head.count >= 12 else { return false }
        func int32(_ offset: Int) -> Int32 {
            head[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int32($1) }
        }
        let (major, minor, revision) = (int32(0), int32(4), int32(8))
        return (major == 0 || major >= 1000) && (1...2).contains(minor % 1000) && (0...16).contains(revision)
    }
}
