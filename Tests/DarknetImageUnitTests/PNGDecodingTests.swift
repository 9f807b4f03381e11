import Darknet
import DarknetImage
import TestSupport
import XCTest

/// Every PNG colour type and bit depth decodes to the 8-bit RGB OpenCV's
/// `imread(IMREAD_COLOR)` gives (what Darknet sees): 16-bit keeps the high byte, low-depth
/// grey is scaled up, palettes are looked up, alpha and tRNS are dropped.
final class PNGDecodingTests: XCTestCase {
    typealias ColorType = TestPNGWriter.ColorType

    static let combinations: [(ColorType, [Int])] = [
        (.grey, [1, 2, 4, 8, 16]),
        (.rgb, [8, 16]),
        (.palette, [1, 2, 4, 8]),
        (.greyAlpha, [8, 16]),
        (.rgba, [8, 16]),
    ]

    func testEveryColorTypeAndBitDepth() throws {
        for (colorType, depths) in Self.combinations {
            for depth in depths {
                for interlaced in [false, true] {
                    try checkRoundTrip(colorType: colorType, depth: depth, interlaced: interlaced,
                                       width: 13, height: 9)
                }
            }
        }
    }

    func testOnePixelAndOneRowImages() throws {
        for (w, h) in [(1, 1), (1, 5), (7, 1)] {
            try checkRoundTrip(colorType: .rgb, depth: 8, interlaced: true, width: w, height: h)
            try checkRoundTrip(colorType: .grey, depth: 1, interlaced: false, width: w, height: h)
        }
    }

    func testSixteenBitKeepsHighByte() throws {
        // 0x01FF -> 1, 0x80FF -> 128, 0xFF00 -> 255 (OpenCV strips, it does not round).
        let writer = TestPNGWriter(width: 3, height: 1, colorType: .rgb, bitDepth: 16,
                                   samples: [0x01FF, 0x80FF, 0xFF00, 0x00FF, 0x7FFF, 0xFFFF, 0x1234, 0xABCD, 0])
        let image = try PlanarImage(data: writer.encode())
        XCTAssertEqual(image.pixels.map { Int(($0 * 255).rounded()) }, [1, 0, 18, 128, 127, 171, 255, 255, 0])
    }

    func testTransparencyIsDroppedNotComposited() throws {
        // Palette entry 1 is fully transparent red: it must still decode as red.
        var palette = TestPNGWriter(width: 2, height: 1, colorType: .palette, bitDepth: 8, samples: [0, 1])
        palette.palette = [(10, 20, 30), (255, 0, 0)]
        palette.transparency = [255, 0]
        let p = try PlanarImage(data: palette.encode())
        XCTAssertEqual(p.pixels, expectedPlanes(rgb: [10, 20, 30, 255, 0, 0], width: 2, height: 1))

        var rgb = TestPNGWriter(width: 2, height: 1, colorType: .rgb, bitDepth: 8, samples: [1, 2, 3, 4, 5, 6])
        rgb.transparency = [0, 1, 0, 2, 0, 3]
        let r = try PlanarImage(data: rgb.encode())
        XCTAssertEqual(r.pixels, expectedPlanes(rgb: [1, 2, 3, 4, 5, 6], width: 2, height: 1))

        var grey = TestPNGWriter(width: 2, height: 1, colorType: .grey, bitDepth: 8, samples: [7, 200])
        grey.transparency = [0, 7]
        let g = try PlanarImage(data: grey.encode())
        XCTAssertEqual(g.pixels, expectedPlanes(rgb: [7, 7, 7, 200, 200, 200], width: 2, height: 1))
    }

    func testEXIFOrientationInPNGIsApplied() throws {
        // 3x2 RGB; orientation 6 (rotate 90° clockwise) gives 2x3 with the bottom-left pixel first.
        let samples = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180]
        var writer = TestPNGWriter(width: 3, height: 2, colorType: .rgb, bitDepth: 8, samples: samples)
        writer.exif = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let image = try PlanarImage(data: writer.encode())
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.height, 3)
        // Red plane as Darknet (OpenCV 4.6) gives it for the same file.
        XCTAssertEqual(Array(image.pixels[0..<6]).map { Int(($0 * 255).rounded()) }, [100, 10, 130, 40, 160, 70])
    }

    // MARK: - Helpers

    private func checkRoundTrip(colorType: ColorType, depth: Int, interlaced: Bool,
                                width: Int, height: Int) throws {
        var random = TestRandom(seed: UInt64(colorType.rawValue) << 8 | UInt64(depth) << 1 | (interlaced ? 1 : 0))
        let maxSample = 1 << depth
        var writer = TestPNGWriter(width: width, height: height, colorType: colorType, bitDepth: depth, samples: [])
        if colorType == .palette {
            let entries = min(256, maxSample)
            writer.palette = (0..<entries).map { _ in
                (UInt8(random.next(below: 256)), UInt8(random.next(below: 256)), UInt8(random.next(below: 256)))
            }
        }
        let count = width * height * colorType.samplesPerPixel
        writer.samples = (0..<count).map { _ in random.next(below: maxSample) }
        writer.interlaced = interlaced

        var expected: [UInt8] = []
        for i in 0..<(width * height) {
            let s = Array(writer.samples[(i * colorType.samplesPerPixel)..<((i + 1) * colorType.samplesPerPixel)])
            func eight(_ v: Int) -> UInt8 { depth == 16 ? UInt8(v >> 8) : UInt8(v * 255 / (maxSample - 1)) }
            switch colorType {
            case .grey, .greyAlpha: expected += [eight(s[0]), eight(s[0]), eight(s[0])]
            case .rgb, .rgba: expected += [eight(s[0]), eight(s[1]), eight(s[2])]
            case .palette: let e = writer.palette[s[0]]; expected += [e.0, e.1, e.2]
            }
        }
        let what = "\(colorType) \(depth)-bit\(interlaced ? " interlaced" : "") \(width)x\(height)"
        let image: PlanarImage
        do {
            image = try PlanarImage(data: writer.encode())
        } catch {
            XCTFail("\(what): \(error)")
            return
        }
        XCTAssertEqual(image.width, width, what)
        XCTAssertEqual(image.height, height, what)
        XCTAssertEqual(image.channels, 3, what)
        XCTAssertEqual(image.pixels, expectedPlanes(rgb: expected, width: width, height: height), what)
    }
}
