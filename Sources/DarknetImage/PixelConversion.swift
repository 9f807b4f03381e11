import Darknet

/// Conversions between decoded 8-bit samples and `PlanarImage`'s planar floats.
enum PixelConversion {
    /// Planar RGB floats from `width * height` interleaved pixels of `components` bytes.
    ///
    /// `components` 3 is RGB. `components` 4 is CMYK as libjpeg returns it (Adobe-inverted
    /// when the file is), converted the way OpenCV does for `IMREAD_COLOR`:
    /// `R = K - ((255 - C) * K >> 8)`, likewise G from M and B from Y.
    static func planarRGB(from source: UnsafePointer<UInt8>, width: Int, height: Int,
                          components: Int) -> [Float] {
        let area = width * height
        var planes = [Float](repeating: 0, count: 3 * area)
        ByteToFloat.table.withUnsafeBufferPointer { lut in
            planes.withUnsafeMutableBufferPointer { out in
                let r = out.baseAddress!, g = r + area, b = g + area
                if components == 3 {
                    for i in 0..<area {
                        r[i] = lut[Int(source[3 * i])]
                        g[i] = lut[Int(source[3 * i + 1])]
                        b[i] = lut[Int(source[3 * i + 2])]
                    }
                } else {
                    for i in 0..<area {
                        let k = Int(source[4 * i + 3])
                        r[i] = lut[k - (((255 - Int(source[4 * i])) * k) >> 8)]
                        g[i] = lut[k - (((255 - Int(source[4 * i + 1])) * k) >> 8)]
                        b[i] = lut[k - (((255 - Int(source[4 * i + 2])) * k) >> 8)]
                    }
                }
            }
        }
        return planes
    }

    /// Interleaved 8-bit samples of a 1- or 3-channel image, row-major.
    static func interleavedBytes(of image: PlanarImage) -> [UInt8] {
        let area = image.width * image.height
        let channels = image.channels
        var bytes = [UInt8](repeating: 0, count: area * channels)
        image.pixels.withUnsafeBufferPointer { src in
            bytes.withUnsafeMutableBufferPointer { dst in
                for c in 0..<channels {
                    let plane = src.baseAddress! + c * area
                    for i in 0..<area {
                        dst[i * channels + c] = PlanarImage.byte(plane[i])
                    }
                }
            }
        }
        return bytes
    }
}

extension PlanarImage {
    /// A decoded image from a decoder's `width x height` interleaved pixels of `components`
    /// bytes (`PixelConversion.planarRGB`), turned upright by `orientation`.
    static func decoded(pixels: UnsafePointer<UInt8>, width: Int, height: Int, components: Int = 3,
                        orientation: EXIFOrientation? = nil, path: String) throws(ImageFileError) -> PlanarImage {
        let image: PlanarImage
        if components == 1 {
            let lut = ByteToFloat.table
            image = try decoded(planes: (0..<(width * height)).map { lut[Int(pixels[$0])] }, width: width, height: height,
                                channels: 1, path: path)
        } else {
            let planes = PixelConversion.planarRGB(from: pixels, width: width, height: height, components: components)
            image = try decoded(planes: planes, width: width, height: height, path: path)
        }
        return orientation.map { image.applying($0) } ?? image
    }

    /// A decoded image from `width x height` interleaved RGB bytes.
    static func decoded(rgb: [UInt8], width: Int, height: Int, path: String) throws(ImageFileError) -> PlanarImage {
        let planes = rgb.withUnsafeBufferPointer {
            PixelConversion.planarRGB(from: $0.baseAddress!, width: width, height: height, components: 3)
        }
        return try decoded(planes: planes, width: width, height: height, path: path)
    }

    /// The core's error named with the file (`ImageFileError.invalidImage`).
    private static func decoded(planes: [Float], width: Int, height: Int, channels: Int = 3,
                                path: String) throws(ImageFileError) -> PlanarImage {
        do {
            return try PlanarImage(width: width, height: height, channels: channels, pixels: planes)
        } catch {
            throw .invalidImage(path: path, error)
        }
    }
}
