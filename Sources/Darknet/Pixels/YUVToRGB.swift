/// BT.601 YUV to 8-bit RGB with the integer arithmetic of FFmpeg's `swscale` default path
/// (`yuv420p`/`yuvj420p` to `rgb24`), so converted frames equal what `ffmpeg -pix_fmt rgb24`
/// writes, byte for byte.
///
/// The coefficients are BT.601's in 1.13 fixed point (video range: luma scaled by 255/219;
/// full range: chroma scaled by 224/255). Each term is computed on samples scaled by 8 and
/// keeps the high 16 bits of its 32-bit product (a floor), the terms are summed, and the sum is
/// clamped to 0...255:
/// `R = Yt + Vr`, `G = Yt + Ug + Vg`, `B = Yt + Ub`, with `Yt = (8 * (Y - 16) * 9539) >> 16`,
/// `Vr = (8 * (V - 128) * 13075) >> 16`, `Ub = (8 * (U - 128) * 16525) >> 16`,
/// `Ug = (8 * (U - 128) * -3209) >> 16`, `Vg = (8 * (V - 128) * -6660) >> 16` in video range
/// (full range: 8192, 11485, 14516, -2819, -5850 and no luma offset).
struct YUVToRGB: Sendable {
    /// The four terms for every sample value, as `Int16`: `luma[y]`, `red[v]`, `blueU[u]`,
    /// `greenU[u] + ...`. Kept as one flat table: `[luma | red | blue | greenU | greenV]`.
    private let table: [Int16]

    init(range: YUVRange) {
        let (luma, offset, red, blue, greenU, greenV): (Int, Int, Int, Int, Int, Int) = switch range {
        case .video: (9539, 128, 13075, 16525, -3209, -6660)
        case .full: (8192, 0, 11485, 14516, -2819, -5850)
        }
        func term(_ sample: Int, _ coefficient: Int) -> Int16 { Int16((sample * coefficient) >> 16) }
        var table = [Int16](repeating: 0, count: 5 * 256)
        for value in 0..<256 {
            let chroma = 8 * value - 1024
            table[value] = term(8 * value - offset, luma)
            table[256 + value] = term(chroma, red)
            table[512 + value] = term(chroma, blue)
            table[768 + value] = term(chroma, greenU)
            table[1024 + value] = term(chroma, greenV)
        }
        self.table = table
    }

    static let video = YUVToRGB(range: .video)
    static let full = YUVToRGB(range: .full)

    static func forRange(_ range: YUVRange) -> YUVToRGB { range == .video ? video : full }

    /// Converts the pixels at `columns` (indices into the visible row) of one row to RGB bytes
    /// at `rgb[3 * column]`. `luma` points at the row's first visible luma sample; `cb` and `cr`
    /// at the chroma sample covering it, chroma samples `chromaStep` bytes apart (1 for I420,
    /// 2 for NV12). `phase` is the visible area's horizontal offset in the frame, whose parity
    /// says where the first chroma sample changes (odd crops).
    func convert(columns: UnsafeBufferPointer<Int>, luma: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>,
                 cr: UnsafePointer<UInt8>, chromaStep: Int, phase: Int, into rgb: UnsafeMutablePointer<UInt8>) {
        let odd = phase & 1
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in columns {
                let c = ((x + odd) >> 1) * chromaStep
                let y = Int32(t[Int(luma[x])])
                let u = Int(cb[c]), v = Int(cr[c])
                let r = y + Int32(t[256 + v])
                let g = y + Int32(t[768 + u]) + Int32(t[1024 + v])
                let b = y + Int32(t[512 + u])
                rgb[3 * x] = UInt8(clamping: r)
                rgb[3 * x + 1] = UInt8(clamping: g)
                rgb[3 * x + 2] = UInt8(clamping: b)
            }
        }
    }
}
