/// Grey from colour, the one conversion every colour source takes into a greyscale (`channels=1`)
/// network: OpenCV's 8-bit `cvtColor(COLOR_BGR2GRAY)`, `(4899 R + 9617 G + 1868 B + 8192) >> 14`
/// (Rec. 601 weights in 14-bit fixed point), which `imread(IMREAD_GRAYSCALE)` also applies to
/// colour files other than JPEG and PNG. Photos (`PlanarImage(contentsOf:channels: 1)`), RGB-family
/// pixel buffers and frames, and uint8 tensors give the same byte for the same red, green and blue.
package enum Luma {
    /// The grey byte of one pixel.
    @inline(__always)
    package static func grey(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        // One term at a time: Swift 6.0 (the aarch64 build's) gives up on the sum as one expression.
        var sum: Int = 4899 * Int(red)
        sum += 9617 * Int(green)
        sum += 1868 * Int(blue)
        return UInt8(truncatingIfNeeded: (sum + 8192) >> 14)
    }
}

extension PlanarImage {
    /// This 3-channel image in one channel, as ``Luma`` converts 8-bit colour: each value is
    /// taken as its byte (`value * 255`, clamped and rounded, exact for decoded files, frames and
    /// uint8 tensors), and the grey byte is stored as `byte / 255`. A 1-channel image is returned
    /// as it is.
    package func greyscaled() -> PlanarImage {
        guard channels == 3 else { return self }
        let area = width * height, lut = ByteToFloat.table
        var grey = [Float](repeating: 0, count: area)
        pixels.withUnsafeBufferPointer { source in
            let red = source.baseAddress!, green = red + area, blue = green + area
            for i in 0..<area {
                let byte = Luma.grey(red: Self.byte(red[i]), green: Self.byte(green[i]), blue: Self.byte(blue[i]))
                grey[i] = lut[Int(byte)]
            }
        }
        return PlanarImage(validatedWidth: width, height: height, channels: 1, pixels: grey)
    }
}
