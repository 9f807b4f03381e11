/// The file formats `DarknetImage` reads and writes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png

    /// The format whose signature starts `bytes`, or `nil` if it is neither JPEG nor PNG.
    ///
    /// JPEG: `FF D8 FF`. PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`.
    public init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else {
            return nil
        }
    }

    /// The format named by a file extension (`png`, `jpg`, `jpeg`; case-insensitive).
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }
}
