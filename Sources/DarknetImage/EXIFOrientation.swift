import Darknet

/// The EXIF `Orientation` tag (0x0112): how the stored pixels must be turned to be seen
/// upright. Raw values follow the EXIF/TIFF specification.
public enum EXIFOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left-right.
    case upMirrored = 2
    /// Upside down (rotate 180°).
    case down = 3
    /// Mirrored top-bottom.
    case downMirrored = 4
    /// Transposed (mirror across the main diagonal).
    case leftMirrored = 5
    /// Displayed after a 90° clockwise rotation.
    case right = 6
    /// Transverse (mirror across the anti-diagonal).
    case rightMirrored = 7
    /// Displayed after a 90° counter-clockwise rotation.
    case left = 8

    /// Whether applying it swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation stored in TIFF-structured EXIF data (`II`/`MM`, 42, IFD0 offset),
    /// or `nil` if there is none or the data is malformed.
    ///
    /// Reads IFD0 the way OpenCV's `ExifReader` does: the first `Orientation` entry's
    /// 16-bit value at the entry's value field, whatever type the entry declares. Values
    /// outside 1...8 mean "leave the image as it is".
    public init?(tiff bytes: ArraySlice<UInt8>) {
        let base = bytes.startIndex
        let count = bytes.count
        guard count >= 8, bytes[base] == bytes[base + 1],
              bytes[base] == UInt8(ascii: "I") || bytes[base] == UInt8(ascii: "M") else { return nil }
        let little = bytes[base] == UInt8(ascii: "I")
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 1 < count else { return nil }
            let a = Int(bytes[base + offset]), b = Int(bytes[base + offset + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let lo = u16(little ? offset : offset + 2), let hi = u16(little ? offset + 2 : offset) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for entry in 0..<entries {
            let field = ifd + 2 + 12 * entry
            guard let tag = u16(field) else { return nil }
            if tag == 0x0112 {
                guard let value = u16(field + 8) else { return nil }
                self.init(rawValue: value)
                return
            }
        }
        return nil
    }
}

extension PlanarImage {
    /// This image turned upright according to `orientation` (as OpenCV's `imread` does
    /// with EXIF data: flips and transposes, no resampling). Works for any channel count.
    public func applying(_ orientation: EXIFOrientation) -> PlanarImage {
        if orientation == .up { return self }
        let w = width, h = height
        let outW = orientation.swapsDimensions ? h : w
        let outH = orientation.swapsDimensions ? w : h
        var out = [Float](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for c in 0..<channels {
                    let s = src.baseAddress! + c * w * h
                    let d = dst.baseAddress! + c * w * h
                    for y in 0..<outH {
                        for x in 0..<outW {
                            // Source column and row shown at (x, y).
                            let sx: Int, sy: Int
                            switch orientation {
                            case .up: (sx, sy) = (x, y)
                            case .upMirrored: (sx, sy) = (w - 1 - x, y)
                            case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                            case .downMirrored: (sx, sy) = (x, h - 1 - y)
                            case .leftMirrored: (sx, sy) = (y, x)
                            case .right: (sx, sy) = (y, h - 1 - x)
                            case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                            case .left: (sx, sy) = (w - 1 - y, x)
                            }
                            d[y * outW + x] = s[sy * w + sx]
                        }
                    }
                }
            }
        }
        // Same value count, width/height possibly swapped: always valid.
        return PlanarImage(validatedWidth: outW, height: outH, channels: channels, pixels: out)
    }
}
