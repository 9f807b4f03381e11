@testable import Darknet
import TestSupport
import XCTest

/// The pixel-buffer path gives the network exactly the input the `Image` path gives for the
/// same pixels, for every packed format, stride, crop and size (bit for bit).
final class PixelLetterboxTests: XCTestCase {
    /// Random RGB bytes laid out as `format` with `padding` spare bytes after every row.
    static func buffer(_ format: PixelFormat, rgb: [UInt8], width: Int, height: Int, padding: Int) throws -> PixelBuffer {
        let step = format.bytesPerPixel, (ro, go, bo) = format.channelOffsets
        let bytesPerRow = width * step + padding
        var bytes = [UInt8](repeating: 0xEE, count: height * bytesPerRow)
        for y in 0..<height {
            for x in 0..<width {
                let p = y * bytesPerRow + x * step, s = 3 * (y * width + x)
                if format == .gray { bytes[p] = rgb[s]; continue }
                bytes[p + ro] = rgb[s]; bytes[p + go] = rgb[s + 1]; bytes[p + bo] = rgb[s + 2]
            }
        }
        return try PixelBuffer(format: format, width: width, height: height, bytes: bytes, bytesPerRow: bytesPerRow)
    }

    static func randomRGB(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<(3 * width * height)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private let sizes = [(37, 23), (1280, 720), (416, 416), (1, 9), (9, 1), (300, 700)]
    private let formats: [PixelFormat] = [.rgba, .bgra, .argb, .rgb, .bgr, .gray]

    func testLetterboxEqualsImagePathBitForBit() throws {
        for (index, (width, height)) in sizes.enumerated() {
            let rgb = Self.randomRGB(width: width, height: height, seed: UInt64(index + 1))
            for format in formats {
                let pixels = try Self.buffer(format, rgb: rgb, width: width, height: height, padding: 5)
                let reference = PlanarImage(pixels: pixels)
                for (netW, netH) in [(416, 416), (608, 320), (13, 7)] {
                    let direct = try pixels.letterboxed(width: netW, height: netH)
                    let viaImage = try reference.letterboxed(width: netW, height: netH)
                    XCTAssertEqual(direct.geometry, viaImage.geometry)
                    XCTAssertTrue(direct.image.pixels == viaImage.image.pixels,
                                  "\(format) \(width)x\(height) -> \(netW)x\(netH): letterbox differs")
                    let stretched = try pixels.stretched(width: netW, height: netH)
                    XCTAssertTrue(stretched.image.pixels == (try reference.stretched(width: netW, height: netH)).image.pixels,
                                  "\(format) \(width)x\(height) -> \(netW)x\(netH): stretch differs")
                }
            }
        }
    }

    func testImageFromPixelsIsByteOver255AndGrayIsReplicated() throws {
        let rgb = Self.randomRGB(width: 5, height: 3, seed: 9)
        let image = PlanarImage(pixels: try Self.buffer(.bgra, rgb: rgb, width: 5, height: 3, padding: 0))
        XCTAssertEqual(image.channels, 3)
        for y in 0..<3 {
            for x in 0..<5 {
                for c in 0..<3 { XCTAssertEqual(image[c, y, x], Float(Double(rgb[3 * (y * 5 + x) + c]) / 255.0)) }
            }
        }
        let gray = PlanarImage(pixels: try Self.buffer(.gray, rgb: rgb, width: 5, height: 3, padding: 2))
        for c in 0..<3 { XCTAssertEqual(gray[c, 2, 4], Float(Double(rgb[3 * (2 * 5 + 4)]) / 255.0)) }
    }

    func testCropReadsTheRegionOnly() throws {
        let width = 64, height = 48
        let rgb = Self.randomRGB(width: width, height: height, seed: 3)
        let region = PixelRegion(x: 7, y: 5, width: 33, height: 21)
        var croppedRGB: [UInt8] = []
        for y in region.y..<(region.y + region.height) {
            croppedRGB += rgb[(3 * (y * width + region.x))..<(3 * (y * width + region.x + region.width))]
        }
        for format in formats {
            let whole = try Self.buffer(format, rgb: rgb, width: width, height: height, padding: 3)
            let crop = try whole.cropped(to: region)
            let separate = try Self.buffer(format, rgb: croppedRGB, width: region.width, height: region.height, padding: 0)
            XCTAssertEqual(PlanarImage(pixels: crop), PlanarImage(pixels: separate), "\(format)")
            XCTAssertEqual(try crop.letterboxed(width: 32, height: 32).image, try separate.letterboxed(width: 32, height: 32).image)
            // A crop of a crop lands in the same place.
            let inner = try crop.cropped(to: PixelRegion(x: 1, y: 2, width: 4, height: 3))
            XCTAssertEqual(PlanarImage(pixels: inner), PlanarImage(pixels: try whole.cropped(to: PixelRegion(x: 8, y: 7, width: 4, height: 3))))
        }
    }

    func testImageRoundTripsThroughInterleavedBytes() throws {
        let rgb = Self.randomRGB(width: 11, height: 7, seed: 4)
        let image = PlanarImage(pixels: try Self.buffer(.rgb, rgb: rgb, width: 11, height: 7, padding: 0))
        for format in formats where format != .gray {
            XCTAssertEqual(PlanarImage(pixels: try image.pixelBuffer(format: format)), image, "\(format)")
        }
        let bgra = try image.pixelBuffer(format: .bgra)
        bgra.withPlaneBases { bases in
            XCTAssertEqual(bases[0][0], rgb[2])  // blue first
            XCTAssertEqual(bases[0][3], 255)     // opaque alpha
        }
        XCTAssertThrowsError(try image.pixelBuffer(format: .nv12(.video)))
        XCTAssertThrowsError(try image.pixelBuffer(format: .gray))
    }

    func testMalformedBuffersAreTypedErrors() {
        XCTAssertThrowsError(try PixelBuffer(format: .bgra, width: 4, height: 2, bytes: [UInt8](repeating: 0, count: 31))) { error in
            XCTAssertEqual(error as? PixelBufferError, .planeTooSmall(plane: 0, bytes: 31, needed: 32))
        }
        XCTAssertThrowsError(try PixelBuffer(format: .rgb, width: 4, height: 2, bytes: [UInt8](repeating: 0, count: 64), bytesPerRow: 11)) { error in
            XCTAssertEqual(error as? PixelBufferError, .rowTooShort(plane: 0, bytesPerRow: 11, needed: 12))
        }
        XCTAssertThrowsError(try PixelBuffer(format: .rgb, width: 0, height: 2, bytes: []))
        XCTAssertThrowsError(try PixelBuffer(format: .nv12(.video), width: 4, height: 2, bytes: [UInt8](repeating: 0, count: 12)))
        XCTAssertThrowsError(try PixelBuffer(format: .i420(.full), width: 4, height: 4,
                                             planes: [.init(bytes: [UInt8](repeating: 0, count: 16), bytesPerRow: 4),
                                                      .init(bytes: [UInt8](repeating: 0, count: 4), bytesPerRow: 2),
                                                      .init(bytes: [UInt8](repeating: 0, count: 3), bytesPerRow: 2)])) { error in
            XCTAssertEqual(error as? PixelBufferError, .planeTooSmall(plane: 2, bytes: 3, needed: 4))
        }
        let buffer = try? PixelBuffer(format: .rgb, width: 4, height: 4, bytes: [UInt8](repeating: 0, count: 48))
        XCTAssertThrowsError(try buffer?.cropped(to: PixelRegion(x: 2, y: 0, width: 3, height: 1)))
        XCTAssertThrowsError(try buffer?.letterboxed(width: 8, height: 8, channels: 2)) { error in
            XCTAssertEqual(error as? PixelBufferError, .unsupportedConversion(format: .rgb, channels: 2))
        }
        var small = [Float](repeating: 0, count: 10)
        try? small.withUnsafeMutableBufferPointer { out in
            XCTAssertThrowsError(try buffer?.letterbox(into: out, width: 8, height: 8))
        }
    }

    /// A one-channel network input from YUV is the luma plane as it is (no RGB round trip):
    /// bit for bit what a gray buffer of the same Y bytes gives, letterboxed or stretched,
    /// whole or cropped at an odd origin, for every YUV layout and range; the chroma bytes
    /// (random here) change nothing.
    func testYUVIntoOneChannelIsItsLumaAsAGrayBufferGivesIt() throws {
        let (width, height) = (38, 26)
        var random = TestRandom(seed: 56)
        let luma = (0..<(width * height)).map { _ in UInt8(random.next(below: 256)) }
        let chroma = { (count: Int) in (0..<count).map { _ in UInt8(random.next(below: 256)) } }
        let gray = try PixelBuffer(format: .gray, width: width, height: height, bytes: luma)
        let (cw, ch) = (width / 2, height / 2)
        let packed = { (yFirst: Bool) -> [UInt8] in
            var bytes: [UInt8] = []
            for y in 0..<height {
                for x in stride(from: 0, to: width, by: 2) {
                    let y0 = luma[y * width + x], y1 = luma[y * width + x + 1], cb = UInt8(random.next(below: 256)), cr = UInt8(random.next(below: 256))
                    bytes += yFirst ? [y0, cb, y1, cr] : [cb, y0, cr, y1]
                }
            }
            return bytes
        }
        var buffers: [PixelBuffer] = []
        for range in [YUVRange.video, .full] {
            buffers += [
                try PixelBuffer(format: .nv12(range), width: width, height: height,
                                planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: chroma(2 * cw * ch), bytesPerRow: 2 * cw)]),
                try PixelBuffer(format: .nv21(range), width: width, height: height,
                                planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: chroma(2 * cw * ch), bytesPerRow: 2 * cw)]),
                try PixelBuffer(format: .i420(range), width: width, height: height,
                                planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: chroma(cw * ch), bytesPerRow: cw),
                                         .init(bytes: chroma(cw * ch), bytesPerRow: cw)]),
                try PixelBuffer(format: .yuyv(range), width: width, height: height, bytes: packed(true)),
                try PixelBuffer(format: .uyvy(range), width: width, height: height, bytes: packed(false)),
            ]
        }
        let crop = PixelRegion(x: 3, y: 5, width: 29, height: 17)
        for buffer in buffers {
            for (name, source, reference) in [("whole", buffer, gray), ("cropped", try buffer.cropped(to: crop), try gray.cropped(to: crop))] {
                let label = "\(buffer.format), \(name)"
                let letterboxed = try source.letterboxed(width: 32, height: 24, channels: 1)
                let expected = try reference.letterboxed(width: 32, height: 24, channels: 1)
                XCTAssertEqual(letterboxed.image.channels, 1, label)
                XCTAssertEqual(letterboxed.image.pixels, expected.image.pixels, label)
                XCTAssertEqual(letterboxed.geometry, expected.geometry, label)
                XCTAssertEqual(try source.stretched(width: 20, height: 30, channels: 1).image.pixels,
                               try reference.stretched(width: 20, height: 30, channels: 1).image.pixels, label)
            }
            // Three channels still convert the colour (the chroma matters there).
            XCTAssertNotEqual(try buffer.letterboxed(width: 32, height: 24).image.pixels,
                              try gray.letterboxed(width: 32, height: 24).image.pixels, "\(buffer.format)")
        }
    }

    /// A one-channel network input from the RGB family is OpenCV's `cvtColor(COLOR_BGR2GRAY)` of
    /// each pixel (`(4899 R + 9617 G + 1868 B + 8192) >> 14`, written out here), then the resize:
    /// bit for bit what a gray buffer of those bytes gives, letterboxed or stretched, whole or
    /// cropped, with padded rows, for every packed colour layout; and what `greyscaled()` (the
    /// photo path's conversion) gives for the same pixels as floats.
    func testRGBFamilyIntoOneChannelIsOpenCVsLumaAsAGrayBufferGivesIt() throws {
        let (width, height) = (41, 27)
        let rgb = Self.randomRGB(width: width, height: height, seed: 56)
        // The extremes too: white must stay 255 and black 0.
        let pixels = [UInt8](repeating: 255, count: 3) + [UInt8](repeating: 0, count: 3) + rgb.dropFirst(6)
        let grey = (0..<(width * height)).map { i -> UInt8 in
            let r: Int = 4899 * Int(pixels[3 * i]), g: Int = 9617 * Int(pixels[3 * i + 1])
            let b: Int = 1868 * Int(pixels[3 * i + 2])
            return UInt8((r + g + b + 8192) >> 14)
        }
        XCTAssertEqual(grey[0], 255)
        XCTAssertEqual(grey[1], 0)
        let gray = try PixelBuffer(format: .gray, width: width, height: height, bytes: grey)
        let crop = PixelRegion(x: 3, y: 5, width: 29, height: 17)
        for format in formats where format != .gray {
            let buffer = try Self.buffer(format, rgb: pixels, width: width, height: height, padding: 5)
            for (name, source, reference) in [("whole", buffer, gray), ("cropped", try buffer.cropped(to: crop), try gray.cropped(to: crop))] {
                let label = "\(format), \(name)"
                let letterboxed = try source.letterboxed(width: 32, height: 24, channels: 1)
                XCTAssertEqual(letterboxed.image.channels, 1, label)
                XCTAssertEqual(letterboxed.image.pixels, try reference.letterboxed(width: 32, height: 24, channels: 1).image.pixels, label)
                XCTAssertEqual(try source.stretched(width: 20, height: 30, channels: 1).image.pixels,
                               try reference.stretched(width: 20, height: 30, channels: 1).image.pixels, label)
            }
            // At its own size the resize copies: the grey plane itself, as the photo path converts it.
            let same = try buffer.letterboxed(width: width, height: height, channels: 1).image
            XCTAssertEqual(same.pixels, grey.map { ByteToFloat.table[Int($0)] }, "\(format)")
            XCTAssertEqual(same, PlanarImage(pixels: buffer).greyscaled(), "\(format)")
        }
    }

    func testBorrowedMemoryIsReleasedOnceWhenTheLastCopyGoes() throws {
        final class Counter: @unchecked Sendable { var releases = 0 }
        let counter = Counter()
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 * 6 * 4, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 100)
        do {
            let buffer = try PixelBuffer(format: .bgra, width: 6, height: 4, borrowing: UnsafeRawBufferPointer(memory),
                                         planes: [.init(offset: 0, bytesPerRow: 24)]) { counter.releases += 1 }
            var crop: PixelBuffer? = try buffer.cropped(to: PixelRegion(x: 1, y: 1, width: 2, height: 2))
            XCTAssertEqual(PlanarImage(pixels: buffer)[0, 0, 0], Float(Double(100) / 255.0))
            XCTAssertEqual(counter.releases, 0)
            crop = nil
            _ = crop
        }
        XCTAssertEqual(counter.releases, 1)
        memory.deallocate()
    }
}
