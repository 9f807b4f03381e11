/// Rows of a `PixelBuffer` as 8-bit red, green and blue samples, the form the resampler reads:
/// packed RGB formats in place (three interleaved views of the row), YUV converted into three
/// planar scratch rows (packed 4:2:2 after its luma is gathered into a fourth). With `lumaOnly`
/// (a one-channel network input), YUV rows are their luma bytes in place, unconverted, and
/// RGB-family rows their grey (``Luma``) in a scratch row: the same view for red, green and
/// blue, as a gray row.
struct PixelRows {
    /// One row's samples: `red[x * step]`, `green[x * step]`, `blue[x * step]`.
    struct Row {
        let red: UnsafePointer<UInt8>
        let green: UnsafePointer<UInt8>
        let blue: UnsafePointer<UInt8>
        let step: Int
    }

    private let buffer: PixelBuffer
    private let bases: [UnsafePointer<UInt8>]
    private let converter: YUVToRGB?
    /// For YUV: the visible columns converted (`first ..< first + count`).
    private let first: Int
    private let count: Int
    /// YUV read as its luma alone (no scratch, no conversion).
    private let lumaOnly: Bool
    /// RGB-family colour read as its grey (``Luma``), the visible columns converted into scratch.
    private let greyFromColour: Bool
    /// For YUV: three planar rows of `count` bytes, a row of `count` gathered luma bytes (packed
    /// 4:2:2), then `2 * count` Int16 of chroma scratch.
    private let scratch: UnsafeMutableRawPointer?

    /// Rows of `buffer`, whose plane memory starts at `bases` (valid while they are read).
    /// For YUV only the columns `columns` (default: all) are converted.
    init(_ buffer: PixelBuffer, bases: [UnsafePointer<UInt8>], columns: Range<Int>? = nil, lumaOnly: Bool = false) {
        self.buffer = buffer
        self.bases = bases
        self.lumaOnly = lumaOnly && buffer.format.isYUV
        greyFromColour = lumaOnly && !buffer.format.isYUV && buffer.format != .gray
        if greyFromColour {
            converter = nil
            let span = columns ?? 0..<buffer.width
            first = span.lowerBound
            count = span.count
            scratch = .allocate(byteCount: max(count, 1), alignment: 16)
            return
        }
        // Converted YUV only: luma alone is read in place, like the RGB family.
        switch self.lumaOnly ? .gray : buffer.format {
        case .nv12(let range), .nv21(let range), .i420(let range), .yuyv(let range), .uyvy(let range):
            converter = YUVToRGB(range: range)
            let span = columns ?? 0..<buffer.width
            first = span.lowerBound
            count = span.count
            scratch = .allocate(byteCount: 4 * count + 4 * count + 2, alignment: 16)
        default:
            converter = nil
            first = 0
            count = 0
            scratch = nil
        }
    }

    /// Frees the scratch rows.
    func deallocate() { scratch?.deallocate() }

    /// Row `y` (0-based in the visible area). For YUV the samples live in the scratch rows
    /// (valid until the next call) and start at column `first`: the pointers are moved back so
    /// that `red[x * step]` is column `x`.
    func row(_ y: Int) -> Row {
        let frameY = buffer.originY + y
        let layouts = buffer.layouts
        if lumaOnly {
            // Y in place: every byte of the luma plane (planar formats) or every other one
            // (Y0 Cb Y1 Cr, Cb Y0 Cr Y1).
            let row = bases[0] + frameY * layouts[0].bytesPerRow
            let luma: UnsafePointer<UInt8>, step: Int
            switch buffer.format {
            case .yuyv: (luma, step) = (row + 2 * buffer.originX, 2)
            case .uyvy: (luma, step) = (row + 2 * buffer.originX + 1, 2)
            default: (luma, step) = (row + buffer.originX, 1)
            }
            return Row(red: luma, green: luma, blue: luma, step: step)
        }
        if greyFromColour, let scratch {
            let step = buffer.format.bytesPerPixel, (ro, go, bo) = buffer.format.channelOffsets
            let row = bases[0] + frameY * layouts[0].bytesPerRow + (buffer.originX + first) * step
            let grey = scratch.assumingMemoryBound(to: UInt8.self)
            for x in 0..<count {
                let pixel = row + x * step
                grey[x] = Luma.grey(red: pixel[ro], green: pixel[go], blue: pixel[bo])
            }
            let shifted = UnsafePointer(grey - first)
            return Row(red: shifted, green: shifted, blue: shifted, step: 1)
        }
        guard let converter, let scratch else {
            let step = buffer.format.bytesPerPixel, (ro, go, bo) = buffer.format.channelOffsets
            let row = bases[0] + frameY * layouts[0].bytesPerRow + buffer.originX * step
            return Row(red: row + ro, green: row + go, blue: row + bo, step: step)
        }
        let frameX = buffer.originX + first
        let row = bases[0] + frameY * layouts[0].bytesPerRow
        let chromaRow = frameY >> 1, chromaColumn = frameX >> 1
        let red = scratch.assumingMemoryBound(to: UInt8.self), green = red + count, blue = green + count
        let luma, cb, cr: UnsafePointer<UInt8>
        let step: Int
        switch buffer.format {
        case .yuyv, .uyvy:
            // Y0 Cb Y1 Cr or Cb Y0 Cr Y1: the luma is gathered into the fourth scratch row.
            let isYUYV = if case .yuyv = buffer.format { true } else { false }
            let lumaOffset = isYUYV ? 0 : 1, chromaPair = row + 4 * chromaColumn + (isYUYV ? 1 : 0)
            let gathered = blue + count
            for x in 0..<count { gathered[x] = row[2 * (frameX + x) + lumaOffset] }
            luma = UnsafePointer(gathered)
            cb = chromaPair
            cr = chromaPair + 2
            step = 4
        case .nv12, .nv21:
            luma = row + frameX
            let pair = bases[1] + chromaRow * layouts[1].bytesPerRow + 2 * chromaColumn
            let isNV12 = if case .nv12 = buffer.format { true } else { false }
            cb = isNV12 ? pair : pair + 1
            cr = isNV12 ? pair + 1 : pair
            step = 2
        default:
            luma = row + frameX
            cb = bases[1] + chromaRow * layouts[1].bytesPerRow + chromaColumn
            cr = bases[2] + chromaRow * layouts[2].bytesPerRow + chromaColumn
            step = 1
        }
        let chroma = (scratch + 4 * count + 1).alignedUp(for: Int16.self).assumingMemoryBound(to: Int16.self)
        converter.convert(count: count, luma: luma, cb: cb, cr: cr, chromaStep: step, odd: frameX & 1 == 1,
                          scratch: chroma, red: red, green: green, blue: blue)
        return Row(red: UnsafePointer(red - first), green: UnsafePointer(green - first), blue: UnsafePointer(blue - first),
                   step: 1)
    }
}
