/// Conversions between `PlanarImage`'s planar floats and 8-bit `PixelBuffer`s.
extension PlanarImage {
    /// The pixels as a 3-channel planar RGB image, each value `byte / 255` (Darknet's
    /// `load_image_color`: grey replicated, alpha dropped; YUV converted as `ffmpeg -pix_fmt
    /// rgb24` converts it, see `PixelFormat`).
    ///
    /// Detection does not need this full-size copy: `Detector.detect(_:region:options:)` reads
    /// the bytes directly. It is here for drawing, saving and comparison.
    public init(pixels: PixelBuffer) {
        let width = pixels.width, height = pixels.height, area = width * height
        var planes = [Float](repeating: 0, count: 3 * area)
        pixels.withPlaneBases { bases in
            let rows = PixelRows(pixels, bases: bases)
            defer { rows.deallocate() }
            ByteToFloat.table.withUnsafeBufferPointer { lut in
                planes.withUnsafeMutableBufferPointer { out in
                    let red = out.baseAddress!, green = red + area, blue = green + area
                    for y in 0..<height {
                        let row = rows.row(y), step = row.step
                        let line = y * width
                        for x in 0..<width {
                            red[line + x] = lut[Int(row.red[x * step])]
                            green[line + x] = lut[Int(row.green[x * step])]
                            blue[line + x] = lut[Int(row.blue[x * step])]
                        }
                    }
                }
            }
        }
        self.init(validatedWidth: width, height: height, channels: 3, pixels: planes)
    }

    /// The image as interleaved 8-bit pixels in `format`, rows tightly packed: each value
    /// clamped to `[0, 1]`, times 255, rounded to nearest (so `byte / 255` images round-trip
    /// exactly); alpha is 255. 3-channel images give the RGB family, 1-channel images any
    /// packed format (grey replicated).
    /// - Throws: `PixelBufferError.unsupportedConversion` for YUV formats, for `.gray` from a
    ///   colour image, and for other channel counts.
    public func pixelBuffer(format: PixelFormat) throws(PixelBufferError) -> PixelBuffer {
        guard !format.isYUV, channels == 1 || (channels == 3 && format != .gray) else {
            throw .unsupportedConversion(format: format, channels: channels)
        }
        let step = format.bytesPerPixel, area = width * height
        let (ro, go, bo) = format.channelOffsets
        let alpha: Int? = switch format {
        case .rgba, .bgra: 3
        case .argb: 0
        default: nil
        }
        var bytes = [UInt8](repeating: 255, count: area * step)
        pixels.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { out in
                let red = source.baseAddress!
                let green = channels == 3 ? red + area : red, blue = channels == 3 ? green + area : red
                for i in 0..<area {
                    let p = out.baseAddress! + i * step
                    p[ro] = Self.byte(red[i])
                    p[go] = Self.byte(green[i])
                    p[bo] = Self.byte(blue[i])
                    if let alpha { p[alpha] = 255 }
                }
            }
        }
        return try PixelBuffer(format: format, width: width, height: height, bytes: bytes)
    }

    /// The byte for a float sample: clamped to `[0, 1]`, times 255, rounded to nearest. NaN is 0.
    @inline(__always)
    package static func byte(_ value: Float) -> UInt8 {
        let clamped: Float = value > 0 ? (value < 1 ? value : 1) : 0
        return UInt8((clamped * 255).rounded())
    }
}
