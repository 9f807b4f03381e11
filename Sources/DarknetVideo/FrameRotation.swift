import Darknet

/// Turns packed RGB frames upright: a phone's portrait video is stored landscape with a display
/// matrix that says how to turn it (`VideoReader.rotation`).
enum FrameRotation {
    /// `buffer` (packed `.rgb`) turned `degrees` (90, 180 or 270) clockwise, into a new buffer.
    static func rotated(_ buffer: PixelBuffer, clockwise degrees: Int) throws(PixelBufferError) -> PixelBuffer {
        precondition(buffer.format == .rgb && [90, 180, 270].contains(degrees), "FrameRotation: packed rgb, 90, 180 or 270 degrees")
        let width = buffer.width, height = buffer.height
        let (outputWidth, outputHeight) = degrees == 180 ? (width, height) : (height, width)
        let count = outputWidth * outputHeight * 3
        let output = buffer.withUnsafePlane(0) { input, bytesPerRow in
            [UInt8](unsafeUninitializedCapacity: count) { destination, initialized in
                turn(input, bytesPerRow: bytesPerRow, width: width, height: height, clockwise: degrees,
                     into: UnsafeMutableRawBufferPointer(destination))
                initialized = count
            }
        }
        return try PixelBuffer(format: .rgb, width: outputWidth, height: outputHeight, bytes: output)
    }

    /// Output pixel (x, y) of a clockwise turn reads input pixel: 90°, (y, height - 1 - x); 180°,
    /// (width - 1 - x, height - 1 - y); 270°, (width - 1 - y, x). Output rows are written in
    /// order; for 90° and 270° the input is read down its columns (blocks of 16 output rows,
    /// reading along input rows, were slower at 1080p).
    private static func turn(_ input: UnsafeRawBufferPointer, bytesPerRow: Int, width: Int, height: Int, clockwise degrees: Int,
                             into output: UnsafeMutableRawBufferPointer) {
        guard let source = input.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let destination = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let outputWidth = degrees == 180 ? width : height, outputHeight = degrees == 180 ? height : width
        // Output pixel (x, y) reads the input byte offset rowBase + y * rowStep + x * columnStep.
        let (rowBase, rowStep, columnStep) = switch degrees {
        case 90: ((height - 1) * bytesPerRow, 3, -bytesPerRow)
        case 180: ((height - 1) * bytesPerRow + 3 * (width - 1), -bytesPerRow, -3)
        default: (3 * (width - 1), -3, bytesPerRow)
        }
        for y in 0..<outputHeight {
            var from = source + (rowBase + y * rowStep)
            var to = destination + 3 * outputWidth * y
            for _ in 0..<outputWidth {
                to[0] = from[0]
                to[1] = from[1]
                to[2] = from[2]
                from += columnStep
                to += 3
            }
        }
    }
}
