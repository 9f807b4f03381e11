extension PixelBuffer {
    /// A copy of the visible area turned `degrees` clockwise (0, 90, 180 or 270), in the same
    /// format: a camera's sensor-oriented frame or a video stored sideways, made upright for
    /// detection (whose boxes are then in the turned frame). Every plane is turned on its own
    /// samples, 4:2:0 chroma with its luma as `ffmpeg`'s `transpose` does; 0 returns the buffer
    /// itself.
    /// - Throws: `PixelBufferError.unalignedYUVCrop` for a YUV crop that starts on an odd
    ///   column or row (its chroma samples straddle the turned picture's), `.unsupportedTurn`
    ///   for packed 4:2:2 (`.yuyv`, `.uyvy`).
    /// - Precondition: `degrees` is 0, 90, 180 or 270.
    public func turned(clockwise degrees: Int) throws(PixelBufferError) -> PixelBuffer {
        precondition([0, 90, 180, 270].contains(degrees), "PixelBuffer.turned: 0, 90, 180 or 270 degrees, got \(degrees)")
        guard degrees != 0 else { return self }
        switch format {
        case .yuyv, .uyvy: throw .unsupportedTurn(format: format)
        default: break
        }
        if format.isYUV, !originX.isMultiple(of: 2) || !originY.isMultiple(of: 2) {
            throw .unalignedYUVCrop(x: originX, y: originY)
        }
        let (turnedWidth, turnedHeight) = degrees == 180 ? (width, height) : (height, width)
        let planes = (0..<format.planeCount).map { plane in
            let (samples, rows, sampleBytes) = sampleGrid(plane: plane)
            return withUnsafePlane(plane) { bytes, bytesPerRow in
                TurnedGrid(input: bytes.baseAddress!, bytesPerRow: bytesPerRow, width: samples, height: rows,
                           sampleBytes: sampleBytes, clockwise: degrees).plane()
            }
        }
        return try PixelBuffer(format: format, width: turnedWidth, height: turnedHeight, planes: planes)
    }

    /// Samples per row, rows and bytes per sample of the visible area of one plane (4:2:0
    /// chroma: half of each, rounded up; NV12's and NV21's chroma samples are pairs).
    private func sampleGrid(plane: Int) -> (Int, Int, Int) {
        switch (format, plane) {
        case (.nv12, 1), (.nv21, 1): ((width + 1) / 2, (height + 1) / 2, 2)
        case (.i420, 1), (.i420, 2): ((width + 1) / 2, (height + 1) / 2, 1)
        default: (width, height, format.bytesPerPixel)
        }
    }
}

/// A grid of samples turned clockwise: output sample (x, y) reads input sample 90°: (y,
/// height - 1 - x); 180°: (width - 1 - x, height - 1 - y); 270°: (width - 1 - y, x), at byte
/// `rowBase + y * rowStep + x * columnStep`. Output rows are written in order; for 90° and 270°
/// the input is read down its columns (blocks of 16 output rows, reading along input rows, were
/// slower at 1080p).
private struct TurnedGrid {
    /// Three bytes moved as one sample.
    private struct Triple {
        var a, b, c: UInt8
    }

    let input: UnsafeRawPointer
    let sampleBytes: Int
    let turnedWidth, turnedHeight: Int
    let rowBase, rowStep, columnStep: Int

    init(input: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int, sampleBytes: Int, clockwise degrees: Int) {
        self.input = input
        self.sampleBytes = sampleBytes
        (turnedWidth, turnedHeight) = degrees == 180 ? (width, height) : (height, width)
        (rowBase, rowStep, columnStep) = switch degrees {
        case 90: ((height - 1) * bytesPerRow, sampleBytes, -bytesPerRow)
        case 180: ((height - 1) * bytesPerRow + sampleBytes * (width - 1), -bytesPerRow, -sampleBytes)
        default: (sampleBytes * (width - 1), -sampleBytes, bytesPerRow)
        }
    }

    /// The turned samples, packed.
    func plane() -> PixelBuffer.Plane {
        let count = turnedWidth * turnedHeight * sampleBytes
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            let destination = UnsafeMutableRawPointer(output.baseAddress!)
            switch sampleBytes {
            case 1: copy(UInt8.self, into: destination)
            case 2: copy(UInt16.self, into: destination)
            case 4: copy(UInt32.self, into: destination)
            default: copy(Triple.self, into: destination)
            }
            initialized = count
        }
        return PixelBuffer.Plane(bytes: bytes, bytesPerRow: turnedWidth * sampleBytes)
    }

    private func copy<Sample: BitwiseCopyable>(_: Sample.Type, into output: UnsafeMutableRawPointer) {
        let size = MemoryLayout<Sample>.size
        for y in 0..<turnedHeight {
            var from = rowBase + y * rowStep
            var to = turnedWidth * y * size
            for _ in 0..<turnedWidth {
                output.storeBytes(of: input.loadUnaligned(fromByteOffset: from, as: Sample.self), toByteOffset: to, as: Sample.self)
                from += columnStep
                to += size
            }
        }
    }
}
