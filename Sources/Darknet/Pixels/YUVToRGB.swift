import CDarknetKernels

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
/// (full range: 8192, 11485, 14516, -2819, -5850 and no luma offset). The loop is
/// the vector kernels' `yuv_to_rgb` (16-bit multiplies, vectorised per instruction set).
struct YUVToRGB: Sendable {
    /// Luma scale, luma offset (x8), red from V, blue from U, green from U, green from V.
    let coefficients: [Int16]

    init(range: YUVRange) {
        coefficients = switch range {
        case .video: [9539, 128, 13075, 16525, -3209, -6660]
        case .full: [8192, 0, 11485, 14516, -2819, -5850]
        }
    }

    /// Converts `count` pixels of one row into the planar rows `red`, `green`, `blue`.
    /// `luma` points at the row's first pixel, `cb` and `cr` at the chroma sample covering it,
    /// chroma samples `chromaStep` bytes apart; `odd` says the row starts on an odd frame
    /// column. `scratch` holds `2 * count` values.
    func convert(count: Int, luma: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
                 chromaStep: Int, odd: Bool, scratch: UnsafeMutablePointer<Int16>,
                 red: UnsafeMutablePointer<UInt8>, green: UnsafeMutablePointer<UInt8>, blue: UnsafeMutablePointer<UInt8>,
                 kernels: VectorKernels = .native) {
        coefficients.withUnsafeBufferPointer { c in
            kernels.functions.pointee.yuv_to_rgb(luma, cb, cr, chromaStep, odd ? 1 : 0, count, c.baseAddress!, scratch, red, green, blue)
        }
    }
}
