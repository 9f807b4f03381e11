import Darknet

/// Turns decoded frames upright: a phone's portrait video is stored landscape with a display
/// matrix that says how to turn it (`VideoReader.rotation`). Every plane is turned on its own
/// samples (a YUV 4:2:0 frame's chroma planes with its luma, as `ffmpeg`'s `transpose` does),
/// so the core still reads the decoder's format.
enum FrameRotation {
    /// `buffer` (uncropped) turned `degrees` (90, 180 or 270) clockwise, into new planes of the
    /// same format.
    static func rotated(_ buffer: PixelBuffer, clockwise degrees: Int) throws(PixelBufferError) -> PixelBuffer {
        precondition([90, 180, 270].contains(degrees), "FrameRotation: 90, 180 or 270 degrees")
        let width = buffer.width, height = buffer.height
        let (turnedWidth, turnedHeight) = degrees == 180 ? (width, height) : (height, width)
        let planes = (0..<buffer.format.planeCount).map { plane in
            let (samples, rows, sampleBytes) = sampleGrid(buffer.format, plane: plane, width: width, height: height)
            return buffer.withUnsafePlane(plane) { bytes, bytesPerRow in
                turn(bytes, bytesPerRow: bytesPerRow, width: samples, height: rows, sampleBytes: sampleBytes, clockwise: degrees)
            }
        }
        return try PixelBuffer(format: buffer.format, width: turnedWidth, height: turnedHeight, planes: planes)
    }

    /// Samples per row, rows and bytes per sample of one plane of a `width x height` frame
    /// (4:2:0 chroma: half of each, rounded up; NV12's chroma samples are Cb, Cr pairs).
    private static func sampleGrid(_ format: PixelFormat, plane: Int, width: Int, height: Int) -> (Int, Int, Int) {
        switch (format, plane) {
        case (.nv12, 1): ((width + 1) / 2, (height + 1) / 2, 2)
        case (.i420, 1), (.i420, 2): ((width + 1) / 2, (height + 1) / 2, 1)
        case (.nv12, _), (.i420, _), (.gray, _): (width, height, 1)
        case (.rgb, _), (.bgr, _): (width, height, 3)
        case (.rgba, _), (.bgra, _), (.argb, _): (width, height, 4)
        }
    }

    /// A `width x height` grid of `sampleBytes`-byte samples turned clockwise, packed.
    private static func turn(_ input: UnsafeRawBufferPointer, bytesPerRow: Int, width: Int, height: Int, sampleBytes: Int,
                             clockwise degrees: Int) -> PixelBuffer.Plane {
        let turnedWidth = degrees == 180 ? width : height, turnedHeight = degrees == 180 ? height : width
        let count = turnedWidth * turnedHeight * sampleBytes
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            let grid = Grid(input: input.baseAddress!, bytesPerRow: bytesPerRow, width: width, height: height,
                            sampleBytes: sampleBytes, degrees: degrees)
            let destination = UnsafeMutableRawPointer(output.baseAddress!)
            switch sampleBytes {
            case 1: grid.copy(UInt8.self, into: destination)
            case 2: grid.copy(UInt16.self, into: destination)
            case 4: grid.copy(UInt32.self, into: destination)
            default: grid.copy(Triple.self, into: destination)
            }
            initialized = count
        }
        return PixelBuffer.Plane(bytes: bytes, bytesPerRow: turnedWidth * sampleBytes)
    }

    /// Three bytes moved as one sample.
    private struct Triple {
        var a, b, c: UInt8
    }

    /// Where each output sample of a clockwise turn is read: output (x, y) reads input sample
    /// 90°: (y, height - 1 - x); 180°: (width - 1 - x, height - 1 - y); 270°: (width - 1 - y, x),
    /// at byte `rowBase + y * rowStep + x * columnStep`. Output rows are written in order; for
    /// 90° and 270° the input is read down its columns (blocks of 16 output rows, reading along
    /// input rows, were slower at 1080p).
    private struct Grid {
        let input: UnsafeRawPointer
        let turnedWidth, turnedHeight: Int
        let rowBase, rowStep, columnStep: Int

        init(input: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int, sampleBytes: Int, degrees: Int) {
            self.input = input
            (turnedWidth, turnedHeight) = degrees == 180 ? (width, height) : (height, width)
            (rowBase, rowStep, columnStep) = switch degrees {
            case 90: ((height - 1) * bytesPerRow, sampleBytes, -bytesPerRow)
            case 180: ((height - 1) * bytesPerRow + sampleBytes * (width - 1), -bytesPerRow, -sampleBytes)
            default: (sampleBytes * (width - 1), -sampleBytes, bytesPerRow)
            }
        }

        func copy<Sample: BitwiseCopyable>(_: Sample.Type, into output: UnsafeMutableRawPointer) {
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
}
