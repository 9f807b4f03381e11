import Darknet

/// Windows and OS/2 bitmaps, decoded to what OpenCV's `imread(IMREAD_COLOR)` gives (checked
/// file by file against Darknet's `load_image_color` in the fidelity tests).
///
/// Headers: OS/2 `BITMAPCOREHEADER` (12 bytes, 3-byte palette entries) and Windows headers of
/// 40 bytes and up (V4, V5). Depths 1, 4 and 8 with a palette (RLE4 and RLE8 too), 16 (5-5-5,
/// or 5-6-5 when the bit fields say so; other 16-bit fields are refused), 24 and 32 (read as
/// B, G, R, unused: bit fields ignored, as OpenCV does); rows bottom-up, or top-down for a
/// negative height. 5- and 6-bit channels are shifted up, not scaled (`v << 3`, `v << 2`);
/// alpha is dropped; palette indices past the palette are black; pixels an RLE stream skips
/// take palette entry 0. Where OpenCV 4.6 departs from the format (it refuses bit fields in V4
/// and V5 headers, and ignores an RLE4 delta's rows), this follows the format.
enum BMPDecoder {
    private struct Layout {
        var width = 0, height = 0, bitsPerPixel = 0, compression = 0
        var topDown = false
        var dataOffset = 0
        var palette: [(UInt8, UInt8, UInt8)] = []
        var green6Bits = false
    }

    static func decode(_ bytes: [UInt8], path: String, limits: DecodeLimits) throws(ImageFileError) -> PlanarImage {
        let reader = ByteReader(bytes: bytes, path: path, format: "BMP")
        let layout = try readHeader(reader)
        try limits.check(width: layout.width, height: layout.height, path: path)
        var rgb = [UInt8](repeating: 0, count: layout.width * layout.height * 3)
        switch layout.compression {
        case 1, 2: try decodeRLE(reader, layout, into: &rgb)
        default: try decodeRows(reader, layout, into: &rgb)
        }
        return try PlanarImage.decoded(rgb: rgb, width: layout.width, height: layout.height, path: path)
    }

    private static func readHeader(_ r: ByteReader) throws(ImageFileError) -> Layout {
        var layout = Layout()
        layout.dataOffset = try r.u32(10, "the file header")
        let headerSize = try r.u32(14, "the bitmap header size")
        let paletteEntrySize: Int
        var colorsUsed = 0
        if headerSize == 12 {
            layout.width = try r.u16(18, "the OS/2 bitmap header")
            layout.height = try r.u16(20, "the OS/2 bitmap header")
            layout.bitsPerPixel = try r.u16(24, "the OS/2 bitmap header")
            paletteEntrySize = 3
        } else if headerSize >= 40 {
            layout.width = try r.i32(18, "the bitmap header")
            let height = try r.i32(22, "the bitmap header")
            layout.topDown = height < 0
            layout.height = abs(height)
            layout.bitsPerPixel = try r.u16(28, "the bitmap header")
            layout.compression = try r.u32(30, "the bitmap header")
            colorsUsed = try r.u32(46, "the bitmap header")
            paletteEntrySize = 4
        } else {
            throw r.damaged("header size \(headerSize) at byte 14 (expected 12, or 40 and up)")
        }
        guard layout.width > 0, layout.height > 0 else {
            throw r.damaged("size \(layout.width)x\(layout.height) in the header at byte 18")
        }
        switch (layout.bitsPerPixel, layout.compression) {
        case (1, 0), (4, 0), (8, 0), (16, 0), (24, 0), (32, 0), (8, 1), (4, 2):
            break
        case (16, 3):
            let masks = [try r.u32(54, "the bit-field masks"), try r.u32(58, "the bit-field masks"), try r.u32(62, "the bit-field masks")]
            switch masks {
            case [0x7C00, 0x03E0, 0x001F]: break
            case [0xF800, 0x07E0, 0x001F]: layout.green6Bits = true
            default:
                let hex = masks.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
                throw r.unsupported("16-bit bit fields \(hex) at byte 54 (5-5-5 and 5-6-5 are read)")
            }
        case (32, 3):
            break
        case (_, 4), (_, 5):
            throw r.unsupported("an embedded \(layout.compression == 4 ? "JPEG" : "PNG") (compression \(layout.compression) at byte 30)")
        default:
            throw r.unsupported("\(layout.bitsPerPixel) bits per pixel with compression \(layout.compression) (bytes 28 and 30)")
        }
        if layout.bitsPerPixel <= 8 {
            let capacity = 1 << layout.bitsPerPixel
            let count = colorsUsed == 0 ? capacity : min(colorsUsed, capacity)
            let start = 14 + headerSize
            try r.require(count * paletteEntrySize, at: start, for: "the \(count)-colour palette")
            layout.palette = (0..<count).map { k in
                let at = start + k * paletteEntrySize
                return (r.bytes[at + 2], r.bytes[at + 1], r.bytes[at])
            }
        }
        return layout
    }

    /// Uncompressed rows, padded to 4 bytes.
    private static func decodeRows(_ r: ByteReader, _ l: Layout, into rgb: inout [UInt8]) throws(ImageFileError) {
        let (rowBits, overflow) = l.width.multipliedReportingOverflow(by: l.bitsPerPixel)
        guard !overflow else { throw r.damaged("row of \(l.width) pixels is too long") }
        let stride = (rowBits + 31) / 32 * 4
        try r.require(stride * l.height, at: l.dataOffset, for: "\(l.height) rows of \(stride) bytes")
        for row in 0..<l.height {
            let source = l.dataOffset + row * stride
            let y = l.topDown ? row : l.height - 1 - row
            var out = y * l.width * 3
            for x in 0..<l.width {
                let (red, green, blue) = pixel(r.bytes, source, x, l)
                rgb[out] = red
                rgb[out + 1] = green
                rgb[out + 2] = blue
                out += 3
            }
        }
    }

    @inline(__always)
    private static func pixel(_ b: [UInt8], _ row: Int, _ x: Int, _ l: Layout) -> (UInt8, UInt8, UInt8) {
        switch l.bitsPerPixel {
        case 24, 32:
            let at = row + x * (l.bitsPerPixel / 8)
            return (b[at + 2], b[at + 1], b[at])
        case 16:
            let v = Int(b[row + 2 * x]) | Int(b[row + 2 * x + 1]) << 8
            if l.green6Bits {
                return (UInt8((v >> 11) << 3), UInt8(((v >> 5) & 63) << 2), UInt8((v & 31) << 3))
            }
            return (UInt8(((v >> 10) & 31) << 3), UInt8(((v >> 5) & 31) << 3), UInt8((v & 31) << 3))
        default:
            let bits = l.bitsPerPixel
            let bit = x * bits
            let index = Int(b[row + bit / 8]) >> (8 - bits - bit % 8) & ((1 << bits) - 1)
            return color(index, l.palette)
        }
    }

    @inline(__always)
    private static func color(_ index: Int, _ palette: [(UInt8, UInt8, UInt8)]) -> (UInt8, UInt8, UInt8) {
        index < palette.count ? palette[index] : (0, 0, 0)
    }

    /// RLE8 and RLE4: runs, absolute runs, end of line, delta and end of bitmap escapes.
    private static func decodeRLE(_ r: ByteReader, _ l: Layout, into rgb: inout [UInt8]) throws(ImageFileError) {
        let background = color(0, l.palette)
        for i in stride(from: 0, to: rgb.count, by: 3) {
            (rgb[i], rgb[i + 1], rgb[i + 2]) = background
        }
        let nibbles = l.compression == 2
        var at = l.dataOffset, x = 0, row = 0
        func put(_ index: Int) {
            if x < l.width, row < l.height {
                let y = l.topDown ? row : l.height - 1 - row
                let out = (y * l.width + x) * 3
                (rgb[out], rgb[out + 1], rgb[out + 2]) = color(index, l.palette)
            }
            x += 1
        }
        while row < l.height {
            let count = try r.u8(at, "the RLE data"), code = try r.u8(at + 1, "the RLE data")
            at += 2
            if count > 0 {
                for k in 0..<count {
                    put(nibbles ? (k % 2 == 0 ? code >> 4 : code & 15) : code)
                }
                continue
            }
            switch code {
            case 0:
                x = 0
                row += 1
            case 1:
                return
            case 2:
                x += try r.u8(at, "an RLE delta")
                row += try r.u8(at + 1, "an RLE delta")
                at += 2
            default:
                let length = nibbles ? (code + 1) / 2 : code
                try r.require(length, at: at, for: "an absolute run of \(code) pixels")
                for k in 0..<code {
                    put(nibbles ? (k % 2 == 0 ? Int(r.bytes[at + k / 2]) >> 4 : Int(r.bytes[at + k / 2]) & 15) : Int(r.bytes[at + k]))
                }
                at += length + length % 2
            }
        }
    }
}
