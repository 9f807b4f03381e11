import Darknet
import DarknetImage
import XCTest

/// The 8 EXIF orientations, the TIFF parser, and orientation applied when decoding JPEG.
final class EXIFOrientationTests: XCTestCase {
    /// 3x2 grey image `a b c / d e f` turned by each orientation.
    func testAllEightOrientations() throws {
        let source = try PlanarImage(width: 3, height: 2, channels: 1, pixels: [0, 1, 2, 3, 4, 5])
        let (a, b, c, d, e, f): (Float, Float, Float, Float, Float, Float) = (0, 1, 2, 3, 4, 5)
        let expected: [EXIFOrientation: (Int, Int, [Float])] = [
            .up: (3, 2, [a, b, c, d, e, f]),
            .upMirrored: (3, 2, [c, b, a, f, e, d]),
            .down: (3, 2, [f, e, d, c, b, a]),
            .downMirrored: (3, 2, [d, e, f, a, b, c]),
            .leftMirrored: (2, 3, [a, d, b, e, c, f]),
            .right: (2, 3, [d, a, e, b, f, c]),
            .rightMirrored: (2, 3, [f, c, e, b, d, a]),
            .left: (2, 3, [c, f, b, e, a, d]),
        ]
        for orientation in EXIFOrientation.allCases {
            let (w, h, pixels) = try XCTUnwrap(expected[orientation])
            let turned = source.applying(orientation)
            XCTAssertEqual([turned.width, turned.height], [w, h], "\(orientation)")
            XCTAssertEqual(turned.pixels, pixels, "\(orientation)")
        }
    }

    func testTIFFParsing() {
        XCTAssertEqual(EXIFOrientation(tiff: ArraySlice(Self.tiff(orientation: 6, bigEndian: true))), .right)
        XCTAssertEqual(EXIFOrientation(tiff: ArraySlice(Self.tiff(orientation: 8, bigEndian: false))), .left)
        XCTAssertEqual(EXIFOrientation(tiff: ArraySlice(Self.tiff(orientation: 3, bigEndian: false, otherTagsFirst: 2))), .down)
        XCTAssertNil(EXIFOrientation(tiff: ArraySlice(Self.tiff(orientation: 9, bigEndian: true))))
        XCTAssertNil(EXIFOrientation(tiff: ArraySlice(Self.tiff(orientation: 0, bigEndian: true))))
        XCTAssertNil(EXIFOrientation(tiff: ArraySlice(Array(Self.tiff(orientation: 6, bigEndian: true).prefix(15)))))
        XCTAssertNil(EXIFOrientation(tiff: ArraySlice([UInt8](repeating: 0, count: 30))))
        XCTAssertNil(EXIFOrientation(tiff: []))
    }

    func testJPEGOrientationIsApplied() throws {
        let plain = try gradientImage(width: 24, height: 16).jpegData(quality: 95)
        let upright = try PlanarImage(data: plain)
        for orientation in EXIFOrientation.allCases {
            for bigEndian in [true, false] {
                let tagged = Self.insertingAPP1(Array("Exif".utf8) + [0, 0] + Self.tiff(orientation: orientation.rawValue, bigEndian: bigEndian), into: plain)
                let decoded = try PlanarImage(data: tagged)
                let expected = upright.applying(orientation)
                XCTAssertEqual([decoded.width, decoded.height], orientation.swapsDimensions ? [16, 24] : [24, 16])
                XCTAssertEqual(decoded, expected, "orientation \(orientation.rawValue)")
            }
        }
    }

    func testOnlyTheFirstAPP1Counts() throws {
        let plain = try gradientImage(width: 8, height: 4).jpegData()
        let xmpFirst = Self.insertingAPP1(Array("http://ns.adobe.com/xap/1.0/\0<x/>".utf8),
                                          into: Self.insertingAPP1(Array("Exif".utf8) + [0, 0] + Self.tiff(orientation: 6, bigEndian: true), into: plain))
        // insertingAPP1 puts each new segment right after SOI: the XMP segment is first.
        let decoded = try PlanarImage(data: xmpFirst)
        XCTAssertEqual([decoded.width, decoded.height], [8, 4])
    }

    // MARK: Helpers

    /// TIFF header + IFD0 with `otherTagsFirst` dummy entries, then Orientation (SHORT).
    static func tiff(orientation: Int, bigEndian: Bool, otherTagsFirst: Int = 0) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += u16(42) + u32(8) + u16(otherTagsFirst + 1)
        for i in 0..<otherTagsFirst {
            bytes += u16(0x0100 + i) + u16(3) + u32(1) + u16(7) + u16(0)  // ImageWidth-like SHORTs
        }
        bytes += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        bytes += u32(0)  // no next IFD
        return bytes
    }

    /// `jpeg` with an APP1 segment holding `payload` inserted right after SOI.
    static func insertingAPP1(_ payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }
}
