import TestSupport

/// A small PNG writer for tests, independent of libpng: any colour type and bit depth,
/// palettes, tRNS, eXIf, Adam7 interlacing, stored (uncompressed) deflate blocks.
struct TestPNGWriter {
    enum ColorType: UInt8 {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        var samplesPerPixel: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    /// Samples row-major, `samplesPerPixel` per pixel, each `0 ..< 1 << bitDepth`.
    var samples: [Int]
    var palette: [(UInt8, UInt8, UInt8)] = []
    var transparency: [UInt8] = []
    var exif: [UInt8]? = nil
    var interlaced = false

    func encode() -> [UInt8] {
        var out = ImageBytes.pngSignature
        var ihdr = ImageBytes.bigEndian32(width) + ImageBytes.bigEndian32(height)
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        out += ImageBytes.pngChunk("IHDR", ihdr)
        if let exif { out += ImageBytes.pngChunk("eXIf", exif) }
        if !palette.isEmpty { out += ImageBytes.pngChunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if !transparency.isEmpty { out += ImageBytes.pngChunk("tRNS", transparency) }
        out += ImageBytes.pngChunk("IDAT", Self.zlibStored(rawScanlines()))
        out += ImageBytes.pngChunk("IEND", [])
        return out
    }

    /// Filter-type-0 scanlines for the whole image or each Adam7 pass.
    func rawScanlines() -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var data: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            if xs.isEmpty || ys.isEmpty { continue }
            for y in ys {
                data.append(0)
                var bits = BitPacker(depth: bitDepth)
                for x in xs {
                    let base = (y * width + x) * colorType.samplesPerPixel
                    for s in 0..<colorType.samplesPerPixel { bits.append(samples[base + s]) }
                }
                data += bits.finish()
            }
        }
        return data
    }

    private struct BitPacker {
        let depth: Int
        var bytes: [UInt8] = []
        var current = 0
        var used = 0

        init(depth: Int) { self.depth = depth }

        mutating func append(_ value: Int) {
            if depth == 16 {
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            } else if depth == 8 {
                bytes.append(UInt8(value))
            } else {
                current = current << depth | value
                used += depth
                if used == 8 { bytes.append(UInt8(current)); current = 0; used = 0 }
            }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current << (8 - used))) }
            return bytes
        }
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + ImageBytes.bigEndian32(Int(b << 16 | a))
    }
}
