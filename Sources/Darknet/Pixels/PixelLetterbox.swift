/// Network input straight from 8-bit pixels: Darknet's letterbox (or stretch) with Darknet's
/// bilinear resize (see `PlanarImage.resized(width:height:)`), reading the bytes directly.
///
/// For the RGB family the values written are bit for bit those of
/// `PlanarImage(pixels:).letterboxed(width:height:)`: the same `byte / 255` values enter the same
/// float32 operations in the same order. Only the source rows and columns the resize reads are
/// touched (YUV is converted only there), and no full-size float image is built: one
/// 1280x720 frame to a 416x416 input reads about two thirds of its rows and columns.
extension PixelBuffer {
    /// Letterboxes the visible pixels into `destination`, a planar `channels x height x width`
    /// network input (canvas 0.5, as Darknet's `letterbox_image`).
    /// - Parameters:
    ///   - destination: `channels * height * width` floats, overwritten.
    ///   - width: the network input's width.
    ///   - height: the network input's height.
    ///   - channels: 3 (RGB planes; gray is replicated) or 1 (a greyscale network): gray buffers
    ///     as they are, the luma (`Y`) of YUV ones as it is (a camera's Y plane goes straight in),
    ///     and the RGB family converted to grey as a photo is for it (OpenCV's `cvtColor(
    ///     COLOR_BGR2GRAY)`, `(4899 R + 9617 G + 1868 B + 8192) >> 14`).
    /// - Returns: where the picture sits on the canvas (maps boxes back).
    /// - Throws: `PixelBufferError.invalidDimensions` for a non-positive size or a
    ///   `destination` of another size, `.unsupportedConversion` for a channel count other than
    ///   1 or 3.
    public func letterbox(into destination: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
                          channels: Int = 3) throws(PixelBufferError) -> LetterboxGeometry {
        try fit(into: destination, width: width, height: height, channels: channels, letterbox: true)
    }

    /// Resizes the visible pixels to fill `destination` (`channels x height x width`) without
    /// keeping the aspect ratio, as Darknet's `resize_image` does for networks run unletterboxed.
    public func stretch(into destination: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
                        channels: Int = 3) throws(PixelBufferError) -> LetterboxGeometry {
        try fit(into: destination, width: width, height: height, channels: channels, letterbox: false)
    }

    /// The letterboxed network input as an `PlanarImage` (allocates it; see `letterbox(into:...)`).
    public func letterboxed(width: Int, height: Int, channels: Int = 3) throws(PixelBufferError)
        -> (image: PlanarImage, geometry: LetterboxGeometry) {
        try fitted(width: width, height: height, channels: channels, letterbox: true)
    }

    /// The stretched network input as an `PlanarImage`.
    public func stretched(width: Int, height: Int, channels: Int = 3) throws(PixelBufferError)
        -> (image: PlanarImage, geometry: LetterboxGeometry) {
        try fitted(width: width, height: height, channels: channels, letterbox: false)
    }

    private func fitted(width: Int, height: Int, channels: Int, letterbox: Bool) throws(PixelBufferError)
        -> (image: PlanarImage, geometry: LetterboxGeometry) {
        var pixels = [Float](repeating: 0, count: try Self.inputCount(width: width, height: height, channels: channels))
        let geometry = try pixels.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(PixelBufferError) in
                try fit(into: buffer, width: width, height: height, channels: channels, letterbox: letterbox)
            }
        }.get()
        return (PlanarImage(validatedWidth: width, height: height, channels: channels, pixels: pixels), geometry)
    }

    /// Letterboxes or stretches the visible pixels into `destination`.
    private func fit(into destination: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, channels: Int,
                     letterbox: Bool) throws(PixelBufferError) -> LetterboxGeometry {
        let (networkWidth, networkHeight) = (max(width, 1), max(height, 1))
        let geometry = LetterboxGeometry(imageWidth: self.width, imageHeight: self.height, networkWidth: networkWidth,
                                         networkHeight: networkHeight, letterbox: letterbox)
        try resample(into: destination, width: width, height: height, channels: channels, geometry: geometry)
        return geometry
    }

    private static func inputCount(width: Int, height: Int, channels: Int) throws(PixelBufferError) -> Int {
        let (area, overflowA) = width.multipliedReportingOverflow(by: height)
        let (count, overflowB) = area.multipliedReportingOverflow(by: channels)
        guard width > 0, height > 0, channels > 0, !overflowA, !overflowB else {
            throw .invalidDimensions(width: width, height: height)
        }
        return count
    }

    private func resample(into destination: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, channels: Int,
                          geometry: LetterboxGeometry) throws(PixelBufferError) {
        let count = try Self.inputCount(width: width, height: height, channels: channels)
        guard destination.count == count, let output = destination.baseAddress else {
            throw .invalidDimensions(width: width, height: height)
        }
        guard channels == 3 || channels == 1 else {
            throw .unsupportedConversion(format: format, channels: channels)
        }
        let columns = ResizeColumns(sourceWidth: self.width, width: geometry.resizedWidth)
        withPlaneBases { bases in
            let rows = PixelRows(self, bases: bases, columns: columns.sourceColumns, lumaOnly: channels == 1)
            defer { rows.deallocate() }
            var resizer = PixelResizer(rows: rows, columns: columns, sourceHeight: self.height,
                                       planes: channels)
            defer { resizer.deallocate() }
            resizer.resize(into: output, canvasWidth: width, canvasHeight: height, geometry: geometry)
        }
    }
}

/// Per output column of the horizontal pass: the source column and its weight, Darknet's way
/// (`w_scale = (W - 1) / (newW - 1)`; the last column, or all when `W == 1`, copies column
/// `W - 1`).
struct ResizeColumns {
    let sourceWidth: Int
    let width: Int
    /// Output columns interpolated between `index[c]` and `index[c] + 1`; the rest copy the
    /// last source column.
    let interpolated: Int
    let index: [Int]
    let weight: [Float]

    init(sourceWidth: Int, width: Int) {
        self.sourceWidth = sourceWidth
        self.width = width
        let scale = Float(sourceWidth - 1) / Float(width - 1)
        interpolated = sourceWidth == 1 ? 0 : width - 1
        var index = [Int](repeating: sourceWidth - 1, count: width)
        var weight = [Float](repeating: 0, count: width)
        for column in 0..<interpolated {
            let sx = Float(column) * scale
            let ix = Int(sx)
            index[column] = min(ix, sourceWidth - 2)
            weight[column] = sx - Float(ix)
        }
        self.index = index
        self.weight = weight
    }

    /// The source columns the pass reads: from the first interpolated one to the last.
    var sourceColumns: Range<Int> {
        let first = interpolated > 0 ? index[0] : sourceWidth - 1
        return first..<sourceWidth
    }
}

/// Darknet's two-pass bilinear resize from 8-bit rows into a planar float canvas: the
/// horizontal pass on each source row the vertical pass needs (two rows cached), then the
/// vertical pass straight into the canvas.
struct PixelResizer {
    let rows: PixelRows
    let columns: ResizeColumns
    let sourceHeight: Int
    /// Float planes written (3, or 1 for gray into a 1-channel input).
    let planes: Int
    /// Two horizontally resized rows, `planes x columns.width` floats each.
    private var cache: UnsafeMutablePointer<Float>
    private var cachedRows: (Int, Int) = (-1, -1)

    init(rows: PixelRows, columns: ResizeColumns, sourceHeight: Int, planes: Int) {
        self.rows = rows
        self.columns = columns
        self.sourceHeight = sourceHeight
        self.planes = planes
        cache = .allocate(capacity: 2 * planes * columns.width)
    }

    func deallocate() { cache.deallocate() }

    /// `(1 - dy) * row[iy] + dy * row[iy + 1]` for every output row, written at
    /// `geometry.offsetX/offsetY` of a `planes x canvasHeight x canvasWidth` canvas whose
    /// other values are set to 0.5.
    mutating func resize(into canvas: UnsafeMutablePointer<Float>, canvasWidth: Int, canvasHeight: Int,
                         geometry: LetterboxGeometry) {
        let width = columns.width, height = geometry.resizedHeight
        let ox = geometry.offsetX, oy = geometry.offsetY
        Self.fillBorder(canvas, planes: planes, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                        x: ox, y: oy, width: width, height: height)
        let scale = Float(sourceHeight - 1) / Float(height - 1)
        for r in 0..<height {
            // height == 1: Darknet's 0 * inf is NaN; row 0 instead (as `PlanarImage.resized`).
            let sy = height == 1 ? 0 : Float(r) * scale
            var iy = Int(sy)
            let dy = sy - Float(iy)
            let copies = r == height - 1 || sourceHeight == 1
            iy = min(iy, copies ? sourceHeight - 1 : sourceHeight - 2)
            let top = resizedRow(iy)
            let a = 1 - dy
            if copies {
                for plane in 0..<planes {
                    let p0 = top + plane * width
                    let o = canvas + (plane * canvasHeight + oy + r) * canvasWidth + ox
                    for column in 0..<width { o[column] = a * p0[column] }
                }
            } else {
                let bottom = resizedRow(iy + 1)
                let top = resizedRow(iy)  // still cached: at most two rows are live
                for plane in 0..<planes {
                    let p0 = top + plane * width, p1 = bottom + plane * width
                    let o = canvas + (plane * canvasHeight + oy + r) * canvasWidth + ox
                    // Each product and the sum rounded to float, no fused multiply-add, as Darknet.
                    for column in 0..<width { o[column] = a * p0[column] + dy * p1[column] }
                }
            }
        }
    }

    /// Source row `y` resized horizontally (`planes` runs of `columns.width` floats), from the
    /// cache when one of the last two rows asked for.
    private mutating func resizedRow(_ y: Int) -> UnsafeMutablePointer<Float> {
        let stride = planes * columns.width
        if cachedRows.0 == y { return cache }
        if cachedRows.1 == y { return cache + stride }
        // Replace the slot holding the lower row: rows are asked for in ascending order.
        let slot = cachedRows.0 < cachedRows.1 ? 0 : 1
        if slot == 0 { cachedRows.0 = y } else { cachedRows.1 = y }
        let destination = cache + slot * stride
        horizontalPass(rows.row(y), into: destination)
        return destination
    }

    private func horizontalPass(_ row: PixelRows.Row, into destination: UnsafeMutablePointer<Float>) {
        let step = row.step
        let width = columns.width
        let last = (columns.sourceWidth - 1) * step
        columns.index.withUnsafeBufferPointer { index in
            columns.weight.withUnsafeBufferPointer { weight in
                ByteToFloat.table.withUnsafeBufferPointer { lut in
                    for plane in 0..<planes {
                        // Gray into one plane reads the red view (all three are the same byte).
                        let source = plane == 0 ? row.red : (plane == 1 ? row.green : row.blue)
                        let out = destination + plane * width
                        for c in 0..<columns.interpolated {
                            let i = index[c] * step, dx = weight[c]
                            out[c] = (1 - dx) * lut[Int(source[i])] + dx * lut[Int(source[i + step])]
                        }
                        for c in columns.interpolated..<width { out[c] = lut[Int(source[last])] }
                    }
                }
            }
        }
    }

    /// Sets every canvas value outside the `width x height` picture at `(x, y)` to 0.5.
    private static func fillBorder(_ canvas: UnsafeMutablePointer<Float>, planes: Int, canvasWidth: Int,
                                   canvasHeight: Int, x: Int, y: Int, width: Int, height: Int) {
        for plane in 0..<planes {
            let base = canvas + plane * canvasHeight * canvasWidth
            base.update(repeating: 0.5, count: y * canvasWidth)
            let below = y + height
            (base + below * canvasWidth).update(repeating: 0.5, count: (canvasHeight - below) * canvasWidth)
            for row in y..<below {
                let line = base + row * canvasWidth
                line.update(repeating: 0.5, count: x)
                (line + x + width).update(repeating: 0.5, count: canvasWidth - x - width)
            }
        }
    }
}

/// `Float(Double(v) / 255.0)` for every byte: Darknet's `data / 255.` stored to float.
package enum ByteToFloat {
    package static let table: [Float] = (0..<256).map { Float(Double($0) / 255.0) }
}
