/// The file formats `DarknetImage` reads (all) and writes (JPEG and PNG): those of OpenCV's
/// `imread`, through which Darknet reads images, that photos and datasets come in, and HEIF
/// (a phone camera's HEIC, and AVIF), which Darknet does not read.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png
    /// Windows and OS/2 bitmaps.
    case bmp
    case tiff
    case webp
    /// PBM, PGM and PPM (`P1` to `P6`).
    case netpbm
    /// HEIF stills: HEIC (HEVC) and AVIF (AV1).
    case heif

    /// The format whose signature starts `bytes`, or `nil` if it is none of them.
    ///
    /// JPEG: `FF D8 FF`. PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`. BMP: `BM`.
    /// TIFF: `II*\0` or `MM\0*` (and BigTIFF's `II+\0`, `MM\0+`). WebP: `RIFF`, 4 bytes,
    /// `WEBP`. Netpbm: `P1` to `P6`, then whitespace or `#`. HEIF: an `ftyp` box whose major
    /// brand is a HEIF image brand (`heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`, `mif1`,
    /// `msf1`, `avif`, `avis`).
    public init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        func starts(_ signature: [UInt8]) -> Bool { head.starts(with: signature) }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("BM".utf8)) {
            self = .bmp
        } else if starts([0x49, 0x49, 0x2A, 0]) || starts([0x4D, 0x4D, 0, 0x2A])
                    || starts([0x49, 0x49, 0x2B, 0]) || starts([0x4D, 0x4D, 0, 0x2B]) {
            self = .tiff
        } else if head.count == 12, starts(Array("RIFF".utf8)), head[8...] == Array("WEBP".utf8)[...] {
            self = .webp
        } else if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(head[1]),
                  [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, UInt8(ascii: "#")].contains(head[2]) {
            self = .netpbm
        } else if head.count == 12, head[4..<8] == Array("ftyp".utf8)[...],
                  Self.heifBrands.contains(String(decoding: head[8..<12], as: UTF8.self)) {
            self = .heif
        } else {
            return nil
        }
    }

    /// The format named by a file extension (case-insensitive): `jpg`, `jpeg`, `png`, `bmp`,
    /// `dib`, `tif`, `tiff`, `webp`, `pbm`, `pgm`, `ppm`, `pnm`, `heic`, `heif`, `hif`, `avif`.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "bmp", "dib": self = .bmp
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "pbm", "pgm", "ppm", "pnm": self = .netpbm
        case "heic", "heif", "hif", "avif": self = .heif
        default: return nil
        }
    }

    /// The extensions `init(pathExtension:)` knows, lower-case.
    public static let pathExtensions: Set<String> = [
        "jpg", "jpeg", "png", "bmp", "dib", "tif", "tiff", "webp", "pbm", "pgm", "ppm", "pnm",
        "heic", "heif", "hif", "avif",
    ]

    /// Major brands of HEIF image files (ISO/IEC 23008-12 and the AVIF specification).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]

    /// Whether `PlanarImage.write(to:)` and the encoders write this format (JPEG and PNG).
    public var isWritable: Bool { self == .jpeg || self == .png }
}
