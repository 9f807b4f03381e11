/// Hand-made image file bytes, independent of the codecs under test: PNG chunks, and files
/// that are nothing but a header (claiming any size) for the decoders' refusals.
public enum ImageBytes {
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG signature and an IHDR for an 8-bit RGB image of that size, nothing after it.
    public static func pngHeaderOnly(width: Int, height: Int) -> [UInt8] {
        pngSignature + pngChunk("IHDR", bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0])
    }

    /// SOI and a baseline SOF0 for a 3-component JPEG of that size, nothing after it.
    public static func jpegHeaderOnly(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 8,
         UInt8(truncatingIfNeeded: height >> 8), UInt8(truncatingIfNeeded: height),
         UInt8(truncatingIfNeeded: width >> 8), UInt8(truncatingIfNeeded: width), 3,
         1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    }

    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian32(data.count) + typeBytes + data + bigEndian32(Int(crc32(typeBytes + data)))
    }

    /// The low 32 bits of `value`, most significant byte first.
    public static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// CRC-32 as PNG (and zlib's gzip) compute it: polynomial 0xEDB88320, reflected.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
