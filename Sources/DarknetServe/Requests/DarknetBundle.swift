/// A Darknet model in one file, as Frigate transfers `model.path`: a tar archive (POSIX ustar,
/// GNU or pax, uncompressed) holding one `.cfg`, one `.weights` and at most one `.names`.
///
/// Only regular files are read; directories are skipped, and links, devices and anything else
/// are refused. Member paths are used for their extension alone: nothing is extracted under a
/// name the archive chose.
///
/// ```sh
/// tar cf yolov4-tiny.tar yolov4-tiny.cfg yolov4-tiny.weights coco.names
/// ```
public struct DarknetBundle: Sendable {
    /// The `.cfg` member's bytes.
    public let cfg: [UInt8]
    /// The `.weights` member's bytes.
    public let weights: [UInt8]
    /// The `.names` member's bytes, if the archive has one.
    public let names: [UInt8]?
    /// The members' names as the archive gives them (cfg, weights, names).
    public let memberNames: [String]

    /// Whether `bytes` start like a tar archive (the `ustar` magic of the first header).
    public static func looksLikeArchive(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 512 && Array(bytes[257..<262]) == Array("ustar".utf8)
    }

    /// Reads the members of the archive `bytes`.
    /// - Throws: `ModelTransferError.bundle` naming what is wrong: a damaged header (its offset),
    ///   a member that is not a regular file, no or two `.cfg` or `.weights` files.
    public init(archive bytes: [UInt8]) throws(ModelTransferError) {
        var found: [String: (name: String, range: Range<Int>)] = [:]
        var offset = 0
        var longName: String?
        while offset + 512 <= bytes.count {
            let header = bytes[offset..<offset + 512]
            if header.allSatisfy({ $0 == 0 }) { break }   // the end-of-archive blocks
            guard Self.checksumMatches(header) else { throw .bundle("the header at byte \(offset) is damaged (checksum)") }
            guard let size = Self.octal(header, 124, 12) else { throw .bundle("the header at byte \(offset) has no readable size") }
            let start = offset + 512
            guard size <= bytes.count - start else { throw .bundle("the member at byte \(offset) runs past the end of the archive") }
            let type = header[header.startIndex + 156]
            var name = longName ?? Self.path(header)
            longName = nil
            switch type {
            case UInt8(ascii: "0"), 0:
                if name.hasPrefix("./") { name.removeFirst(2) }
                let base = name.split(separator: "/").last.map(String.init) ?? name
                if let kind = ["cfg", "weights", "names"].first(where: { base.hasSuffix("." + $0) }), !base.hasPrefix("._") {
                    if let earlier = found[kind] { throw .bundle("two .\(kind) files: '\(earlier.name)' and '\(name)'") }
                    found[kind] = (name, start..<start + size)
                }
            case UInt8(ascii: "5"), UInt8(ascii: "x"), UInt8(ascii: "g"):
                break   // a directory, or pax attributes (a long name there is not needed: only the extension is)
            case UInt8(ascii: "L"):
                longName = String(decoding: bytes[start..<start + size].prefix { $0 != 0 }, as: UTF8.self)
            default:
                throw .bundle("'\(name)' is not a regular file (tar type '\(Character(Unicode.Scalar(type)))'); links are not followed")
            }
            offset = start + (size + 511) / 512 * 512
        }
        guard let cfg = found["cfg"] else { throw .bundle("no .cfg file in the archive") }
        guard let weights = found["weights"] else { throw .bundle("no .weights file in the archive") }
        self.cfg = Array(bytes[cfg.range])
        self.weights = Array(bytes[weights.range])
        names = found["names"].map { Array(bytes[$0.range]) }
        memberNames = [cfg.name, weights.name] + (found["names"].map { [$0.name] } ?? [])
    }

    /// The member's path: ustar's prefix and name fields.
    private static func path(_ header: ArraySlice<UInt8>) -> String {
        let field = { (start: Int, count: Int) in
            String(decoding: header[header.startIndex + start..<header.startIndex + start + count].prefix { $0 != 0 }, as: UTF8.self)
        }
        let prefix = field(345, 155), name = field(0, 100)
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// An octal number field (NUL- or space-terminated); nil if it is not one.
    private static func octal(_ header: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
        let digits = header[header.startIndex + start..<header.startIndex + start + count]
            .drop { $0 == UInt8(ascii: " ") }.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 11, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether the header's checksum field is the sum of its bytes (the field itself as spaces).
    private static func checksumMatches(_ header: ArraySlice<UInt8>) -> Bool {
        guard let stored = octal(header, 148, 8) else { return false }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        return sum == stored
    }
}
