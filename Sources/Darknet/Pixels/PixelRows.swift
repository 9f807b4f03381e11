/// Rows of a `PixelBuffer` as packed 8-bit RGB-like bytes, the form the resampler reads:
/// packed formats in place, YUV converted (only the columns asked for) into a scratch row.
struct PixelRows {
    /// Bytes from one pixel to the next in the rows `row(_:)` returns.
    let bytesPerPixel: Int
    /// Offsets of red, green and blue inside a pixel.
    let offsets: (red: Int, green: Int, blue: Int)

    private let buffer: PixelBuffer
    private let bases: [UnsafePointer<UInt8>]
    private let converter: YUVToRGB?
    /// For YUV: the visible columns to convert, and the row they are converted into.
    private let columns: [Int]
    private let scratch: UnsafeMutablePointer<UInt8>?

    /// Rows of `buffer`, whose plane memory starts at `bases` (valid while they are read).
    /// For YUV only `columns` of each row are converted (all when nil).
    init(_ buffer: PixelBuffer, bases: [UnsafePointer<UInt8>], columns: [Int]?) {
        self.buffer = buffer
        self.bases = bases
        switch buffer.format {
        case .nv12(let range), .i420(let range):
            converter = YUVToRGB.forRange(range)
            bytesPerPixel = 3
            offsets = (0, 1, 2)
            self.columns = columns ?? Array(0..<buffer.width)
            scratch = .allocate(capacity: 3 * buffer.width)
        default:
            converter = nil
            bytesPerPixel = buffer.format.bytesPerPixel
            offsets = buffer.format.channelOffsets
            self.columns = []
            scratch = nil
        }
    }

    /// Frees the scratch row.
    func deallocate() { scratch?.deallocate() }

    /// The first visible pixel of row `y` (0-based in the visible area). For YUV the row is
    /// the scratch row, valid until the next call.
    func row(_ y: Int) -> UnsafePointer<UInt8> {
        let frameY = buffer.originY + y
        let layouts = buffer.layouts
        guard let converter, let scratch else {
            return bases[0] + frameY * layouts[0].bytesPerRow + buffer.originX * bytesPerPixel
        }
        let luma = bases[0] + frameY * layouts[0].bytesPerRow + buffer.originX
        let chromaRow = frameY >> 1, chromaColumn = buffer.originX >> 1
        let cb, cr: UnsafePointer<UInt8>
        let step: Int
        if case .nv12 = buffer.format {
            cb = bases[1] + chromaRow * layouts[1].bytesPerRow + 2 * chromaColumn
            cr = cb + 1
            step = 2
        } else {
            cb = bases[1] + chromaRow * layouts[1].bytesPerRow + chromaColumn
            cr = bases[2] + chromaRow * layouts[2].bytesPerRow + chromaColumn
            step = 1
        }
        columns.withUnsafeBufferPointer { columns in
            converter.convert(columns: columns, luma: luma, cb: cb, cr: cr, chromaStep: step,
                              phase: buffer.originX, into: scratch)
        }
        return UnsafePointer(scratch)
    }
}
