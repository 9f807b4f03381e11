import Darknet

/// Netpbm images (PBM, PGM, PPM; `P1`-`P6`), decoded to what OpenCV's `imread(IMREAD_COLOR)`
/// gives (checked against Darknet's `load_image_color` in the fidelity tests).
///
/// Maxval decides the samples' size: up to 255, one byte, used as stored in the binary formats
/// (not rescaled) and rescaled to `v * 255 / maxval` in the plain (ASCII) ones; above 255,
/// two bytes big-endian (or a decimal number) keeping their high byte (`v >> 8`). Plain
/// samples above maxval count as maxval. In a bitmap, 1 is black. `#` starts a comment
/// anywhere before a number; `P1` samples are single digits, which need no separator.
enum NetpbmDecoder {
    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        let reader = ByteReader(bytes: bytes, path: path, format: "Netpbm")
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) else {
            throw reader.damaged("no P1-P6 magic number at byte 0")
        }
        let kind = Int(bytes[1] - UInt8(ascii: "0"))
        let isBitmap = kind == 1 || kind == 4
        let channels = kind == 3 || kind == 6 ? 3 : 1
        var scanner = Scanner(reader: reader, at: 2)
        let width = try scanner.number("the width")
        let height = try scanner.number("the height")
        let maxValue = isBitmap ? 1 : try scanner.number("the maxval")
        guard width > 0, height > 0 else { throw reader.damaged("size \(width)x\(height) in the header") }
        guard (1...65535).contains(maxValue) else {
            throw reader.damaged("maxval \(maxValue) (expected 1 to 65535)")
        }
        try limits.check(width: width, height: height, path: path)

        let area = width * height
        var samples = [UInt8](repeating: 0, count: area * channels)
        let wide = maxValue > 255
        switch kind {
        case 1:
            for i in 0..<area {
                samples[i] = try scanner.bit() == 1 ? 0 : 255
            }
        case 2, 3:
            for i in 0..<samples.count {
                let value = min(try scanner.number("sample \(i)"), maxValue)
                samples[i] = UInt8(wide ? value >> 8 : value * 255 / maxValue)
            }
        case 4:
            let start = try scanner.rasterStart()
            let stride = (width + 7) / 8
            try reader.require(stride * height, at: start, for: "\(height) rows of \(stride) bytes")
            for y in 0..<height {
                for x in 0..<width {
                    let black = bytes[start + y * stride + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                    samples[y * width + x] = black ? 0 : 255
                }
            }
        default:
            let start = try scanner.rasterStart()
            let size = wide ? 2 : 1
            try reader.require(samples.count * size, at: start, for: "\(samples.count) samples of \(size) bytes")
            for i in 0..<samples.count {
                samples[i] = bytes[start + i * size]  // the high byte, or the only one
            }
        }
        var rgb = samples
        if channels == 1 {
            rgb = [UInt8](repeating: 0, count: 3 * area)
            for i in 0..<area {
                (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) = (samples[i], samples[i], samples[i])
            }
        }
        return try PlanarImage.decoded(rgb: rgb, width: width, height: height, path: path)
    }

    /// Header fields and plain-format samples: decimal numbers between whitespace and comments.
    private struct Scanner {
        let reader: ByteReader
        var offset: Int

        init(reader: ByteReader, at offset: Int) {
            self.reader = reader
            self.offset = offset
        }

        private var bytes: [UInt8] { reader.bytes }

        private static func isSpace(_ c: UInt8) -> Bool {
            c == 0x20 || (0x09...0x0D).contains(c)
        }

        mutating func skipSpaceAndComments() {
            while offset < bytes.count {
                if Self.isSpace(bytes[offset]) {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
                } else {
                    return
                }
            }
        }

        mutating func number(_ what: @autoclosure () -> String) throws(ImageFileError) -> Int {
            skipSpaceAndComments()
            let start = offset
            var value = 0
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
                guard value <= 1 << 20 else { throw reader.damaged("\(what()) at byte \(start) is too large") }
                offset += 1
            }
            guard offset > start else {
                throw reader.damaged(offset < bytes.count ? "\(what()) expected at byte \(start), found '\(Character(Unicode.Scalar(bytes[offset])))'" : "file ends at byte \(start), before \(what())")
            }
            return value
        }

        /// One `P1` sample: a `0` or `1`, with or without separators.
        mutating func bit() throws(ImageFileError) -> Int {
            skipSpaceAndComments()
            guard offset < bytes.count else { throw reader.damaged("file ends at byte \(offset), inside the bitmap") }
            let c = bytes[offset]
            guard c == UInt8(ascii: "0") || c == UInt8(ascii: "1") else {
                throw reader.damaged("bit expected at byte \(offset), found byte \(c)")
            }
            offset += 1
            return Int(c - UInt8(ascii: "0"))
        }

        /// The binary raster starts after the single whitespace character ending the header.
        func rasterStart() throws(ImageFileError) -> Int {
            guard offset < bytes.count, Self.isSpace(bytes[offset]) else {
                throw reader.damaged("whitespace expected at byte \(offset), after the header")
            }
            return offset + 1
        }
    }
}
