/// One picture as 8-bit interleaved or planar YUV pixels in memory, the form cameras, decoders
/// and drawing contexts hand over (see `PixelFormat`), with a row stride per plane.
///
/// Detection reads it directly: `Detector.detect(_:region:options:)` letterboxes these bytes
/// into the network input with Darknet's resize, without building a full-size float image.
/// A buffer either owns its bytes (`[UInt8]` planes) or borrows memory someone else owns, such
/// as a locked `CVPixelBuffer`, until its last copy is gone (`init(format:width:height:borrowing:planes:release:)`).
/// Buffers are immutable and `Sendable`; copying one shares its bytes.
public struct PixelBuffer: Sendable {
    /// Where one plane starts in its memory and how far apart its rows are.
    public struct PlaneLayout: Sendable, Hashable {
        /// Byte offset of the plane's first row.
        public var offset: Int
        /// Bytes from the start of one row to the start of the next (at least the row's pixels).
        public var bytesPerRow: Int

        public init(offset: Int = 0, bytesPerRow: Int) {
            self.offset = offset
            self.bytesPerRow = bytesPerRow
        }
    }

    /// One plane's bytes and its row stride.
    public struct Plane: Sendable {
        public var bytes: [UInt8]
        public var bytesPerRow: Int

        public init(bytes: [UInt8], bytesPerRow: Int) {
            self.bytes = bytes
            self.bytesPerRow = bytesPerRow
        }
    }

    /// How the bytes are laid out.
    public let format: PixelFormat
    /// Visible width in pixels (the crop's, for a cropped buffer).
    public let width: Int
    /// Visible height in pixels.
    public let height: Int

    let storage: [PixelStorage]
    let layouts: [PlaneLayout]
    /// Where the visible area starts in the planes (non-zero after `cropped(to:)`).
    let originX: Int
    let originY: Int

    /// A single-plane buffer (RGBA, BGRA, ARGB, RGB, BGR, gray, YUYV, UYVY) over `bytes`, rows
    /// `bytesPerRow` apart (default: tightly packed).
    /// - Throws: `PixelBufferError` if the format has several planes, a dimension is not
    ///   positive, or `bytes` is too short for `height` rows.
    public init(format: PixelFormat, width: Int, height: Int, bytes: [UInt8], bytesPerRow: Int? = nil) throws(PixelBufferError) {
        guard format.planeCount == 1 else { throw .planeCountMismatch(format: format, expected: format.planeCount, actual: 1) }
        guard width > 0, width < 1 << 24 else { throw .invalidDimensions(width: width, height: height) }
        let packed = Self.planeSize(format: format, plane: 0, width: width, height: max(1, height)).rowBytes
        try self.init(format: format, width: width, height: height,
                      planes: [Plane(bytes: bytes, bytesPerRow: bytesPerRow ?? packed)])
    }

    /// A buffer over one array per plane: one for packed formats, two for `.nv12` and `.nv21` (luma,
    /// interleaved chroma), three for `.i420` (Y, Cb, Cr).
    /// - Throws: `PixelBufferError` if the plane count does not match the format or a plane is
    ///   too small for its rows.
    public init(format: PixelFormat, width: Int, height: Int, planes: [Plane]) throws(PixelBufferError) {
        let layouts = planes.map { PlaneLayout(offset: 0, bytesPerRow: $0.bytesPerRow) }
        try Self.validate(format: format, width: width, height: height, layouts: layouts,
                          byteCounts: planes.map(\.bytes.count))
        self.init(format: format, width: width, height: height,
                  storage: planes.map { PixelStorage(array: $0.bytes) }, layouts: layouts, originX: 0, originY: 0)
    }

    /// A buffer that reads memory it does not own, without copying it: `planes` give each
    /// plane's offset into `memory` and its stride. The caller keeps `memory` valid and
    /// unchanged until `release` runs; it runs once, when the last copy of this buffer (and of
    /// its crops) is gone — for a camera frame, unlock and release the frame there.
    /// - Throws: `PixelBufferError` if the layouts do not fit the format or reach past `memory`
    ///   (then `release` is not called; the memory stays the caller's).
    public init(format: PixelFormat, width: Int, height: Int, borrowing memory: UnsafeRawBufferPointer,
                planes: [PlaneLayout], release: @escaping @Sendable () -> Void) throws(PixelBufferError) {
        try Self.validate(format: format, width: width, height: height, layouts: planes,
                          byteCounts: Array(repeating: memory.count, count: planes.count))
        let storage = PixelStorage(borrowing: memory, release: release)
        self.init(format: format, width: width, height: height,
                  storage: Array(repeating: storage, count: planes.count), layouts: planes, originX: 0, originY: 0)
    }

    private init(format: PixelFormat, width: Int, height: Int, storage: [PixelStorage], layouts: [PlaneLayout],
                 originX: Int, originY: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.storage = storage
        self.layouts = layouts
        self.originX = originX
        self.originY = originY
    }

    /// The part of this buffer inside `region` (in this buffer's pixels), sharing its bytes.
    /// YUV crops may start on odd pixels: chroma is still read from the sample covering each
    /// pixel, as it would be in the whole frame.
    /// - Throws: `PixelBufferError.regionOutOfBounds` if `region` is empty or not inside.
    public func cropped(to region: PixelRegion) throws(PixelBufferError) -> PixelBuffer {
        guard region.width > 0, region.height > 0, region.x >= 0, region.y >= 0,
              region.x <= width - region.width, region.y <= height - region.height else {
            throw .regionOutOfBounds(region: region, width: width, height: height)
        }
        return PixelBuffer(format: format, width: region.width, height: region.height, storage: storage,
                           layouts: layouts, originX: originX + region.x, originY: originY + region.y)
    }

    /// Checks that every plane holds its rows: `(rows - 1) * bytesPerRow + rowBytes` bytes
    /// from its offset, with `bytesPerRow >= rowBytes`.
    private static func validate(format: PixelFormat, width: Int, height: Int, layouts: [PlaneLayout],
                                 byteCounts: [Int]) throws(PixelBufferError) {
        guard width > 0, height > 0, width < 1 << 24, height < 1 << 24 else {
            throw .invalidDimensions(width: width, height: height)
        }
        guard layouts.count == format.planeCount else {
            throw .planeCountMismatch(format: format, expected: format.planeCount, actual: layouts.count)
        }
        for (plane, layout) in layouts.enumerated() {
            let (rowBytes, rows) = planeSize(format: format, plane: plane, width: width, height: height)
            guard layout.bytesPerRow >= rowBytes else {
                throw .rowTooShort(plane: plane, bytesPerRow: layout.bytesPerRow, needed: rowBytes)
            }
            let (span, overflowA) = (rows - 1).multipliedReportingOverflow(by: layout.bytesPerRow)
            let (extent, overflowB) = span.addingReportingOverflow(rowBytes)
            let (end, overflowC) = extent.addingReportingOverflow(layout.offset)
            guard layout.offset >= 0, !overflowA, !overflowB, !overflowC, end <= byteCounts[plane] else {
                throw .planeTooSmall(plane: plane, bytes: byteCounts[plane] - max(0, layout.offset),
                                     needed: overflowA || overflowB ? Int.max : extent)
            }
        }
    }

    /// Bytes of one row and number of rows of a plane of a `width x height` picture.
    package static func planeSize(format: PixelFormat, plane: Int, width: Int, height: Int) -> (rowBytes: Int, rows: Int) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch (format, plane) {
        case (.nv12, 1), (.nv21, 1): return (2 * chromaWidth, chromaHeight)
        case (.i420, 1), (.i420, 2): return (chromaWidth, chromaHeight)
        case (.yuyv, _), (.uyvy, _): return (4 * chromaWidth, height)
        default: return (width * format.bytesPerPixel, height)
        }
    }

    /// Runs `body` with the first byte of each plane's memory (at its layout offset).
    func withPlaneBases<R>(_ body: ([UnsafePointer<UInt8>]) throws -> R) rethrows -> R {
        func nest(_ plane: Int, _ bases: [UnsafePointer<UInt8>]) throws -> R {
            guard plane < storage.count else { return try body(bases) }
            return try storage[plane].withBytes { raw in
                // Validated: the plane's rows lie inside `raw` from its offset on.
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + layouts[plane].offset
                return try nest(plane + 1, bases + [base])
            }
        }
        return try nest(0, [])
    }
}

extension PixelBuffer {
    /// Runs `body` with the bytes of plane `plane` from the visible area's first sample (for a
    /// crop, its top-left corner; chroma planes from the sample covering it) to the end of the
    /// plane's memory, and the plane's row stride. The bytes are valid only inside `body`.
    /// - Precondition: `plane < format.planeCount`.
    public func withUnsafePlane<R>(_ plane: Int, _ body: (UnsafeRawBufferPointer, _ bytesPerRow: Int) throws -> R) rethrows -> R {
        precondition(plane >= 0 && plane < format.planeCount, "\(format) has \(format.planeCount) plane(s)")
        let layout = layouts[plane]
        let chroma = plane > 0
        let x = chroma ? originX >> 1 : originX, y = chroma ? originY >> 1 : originY
        let sampleBytes: Int
        switch format {
        case .nv12 where chroma, .nv21 where chroma: sampleBytes = 2
        default: sampleBytes = format.bytesPerPixel
        }
        let start = layout.offset + y * layout.bytesPerRow + x * sampleBytes
        return try storage[plane].withBytes { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[start...]), layout.bytesPerRow)
        }
    }
}

extension PixelBuffer: CustomStringConvertible {
    /// Its format and visible size, as `PixelBuffer(BGRA, 640 x 480)` (a crop adds where it
    /// starts), not the bytes.
    public var description: String { "PixelBuffer(\(summary))" }

    /// Format and visible size, for the descriptions of the frames that carry a buffer.
    package var summary: String {
        let crop = originX == 0 && originY == 0 ? "" : " at (\(originX), \(originY))"
        return "\(format), \(width) x \(height)\(crop)"
    }
}
