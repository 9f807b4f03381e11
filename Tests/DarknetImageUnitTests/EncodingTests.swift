import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// PNG and JPEG output, and choosing the format from the file extension.
final class EncodingTests: XCTestCase {
    func testPNGRoundTripIsExact() throws {
        var random = TestRandom(seed: 7)
        let bytes = (0..<(3 * 37 * 23)).map { _ in UInt8(random.next(below: 256)) }
        let planes = (0..<3).flatMap { c in (0..<(37 * 23)).map { Float(Double(bytes[3 * $0 + c]) / 255.0) } }
        let image = try PlanarImage(width: 37, height: 23, channels: 3, pixels: planes)
        let decoded = try PlanarImage(data: try image.pngData())
        XCTAssertEqual(decoded, image)
    }

    func testGreyImageEncodesAsGreyAndDecodesToThreeEqualPlanes() throws {
        let grey = try PlanarImage(width: 4, height: 2, channels: 1, pixels: [0, 0.25, 0.5, 1, 1, 0.5, 0.25, 0])
        let png = try grey.pngData()
        XCTAssertEqual(png[25], 0, "colour type should be grey")
        let decoded = try PlanarImage(data: png)
        XCTAssertEqual(decoded.channels, 3)
        let plane = Array(decoded.pixels[0..<8])
        XCTAssertEqual(Array(decoded.pixels[8..<16]), plane)
        XCTAssertEqual(Array(decoded.pixels[16..<24]), plane)
        XCTAssertEqual(plane.map { Int(($0 * 255).rounded()) }, [0, 64, 128, 255, 255, 128, 64, 0])
    }

    func testOutOfRangeValuesAreClamped() throws {
        let image = try PlanarImage(width: 3, height: 1, channels: 1, pixels: [-1, 2, .nan])
        let decoded = try PlanarImage(data: try image.pngData())
        XCTAssertEqual(Array(decoded.pixels[0..<3]), [0, 1, 0])
    }

    func testJPEGRoundTripIsClose() throws {
        // Smooth content: JPEG's 4:2:0 chroma subsampling blurs anything sharper.
        var smooth = [Float](repeating: 0, count: 3 * 48 * 32)
        for c in 0..<3 {
            for i in 0..<(48 * 32) {
                let x = i % 48, y = i / 48
                smooth[c * 48 * 32 + i] = Float(x + y * (c + 1)) / 160
            }
        }
        let image = try PlanarImage(width: 48, height: 32, channels: 3, pixels: smooth)
        for quality in [90, 100] {
            let decoded = try PlanarImage(data: try image.jpegData(quality: quality))
            XCTAssertEqual([decoded.width, decoded.height], [48, 32])
            let worst = maxAbsDifference(decoded.pixels, image.pixels)
            XCTAssertLessThan(worst, 0.05, "quality \(quality)")
        }
        let grey = try PlanarImage(width: 16, height: 16, channels: 1, filledWith: 0.5)
        let decodedGrey = try PlanarImage(data: try grey.jpegData())
        XCTAssertEqual(decodedGrey.pixels.max()!, 128 / 255, accuracy: 2 / 255)
    }

    func testWriteChoosesFormatByExtension() throws {
        let image = try gradientImage(width: 20, height: 10)
        let directory = try temporaryDirectory("image-write")
        for (name, format) in [("a.png", ImageFormat.png), ("b.jpg", .jpeg), ("c.jpeg", .jpeg), ("d.PNG", .png), ("e.JPG", .jpeg)] {
            let url = directory.appendingPathComponent(name)
            try image.write(to: url)
            let bytes = [UInt8](try Data(contentsOf: url))
            XCTAssertEqual(ImageFormat(sniffing: bytes), format, name)
            let back = try PlanarImage(contentsOf: url)
            XCTAssertEqual([back.width, back.height], [20, 10], name)
            if format == .png { XCTAssertEqual(back, image.quantized(), name) }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    func testWriteErrors() throws {
        let image = try gradientImage(width: 4, height: 4)
        let directory = try temporaryDirectory("write-errors")
        XCTAssertThrowsError(try image.write(to: directory.appendingPathComponent("x.bmp"))) { error in
            guard case .writeFailed = error as? ImageFileError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try image.write(to: directory.appendingPathComponent("no-extension")))
        let missingDir = directory.appendingPathComponent("no-such-dir-\(UUID())/x.png")
        XCTAssertThrowsError(try image.write(to: missingDir)) { error in
            XCTAssertEqual((error as? ImageFileError).map { if case .writeFailed(let p, _) = $0 { p } else { "" } }, missingDir.path)
        }
        let four = try PlanarImage(width: 2, height: 2, channels: 4, filledWith: 0)
        XCTAssertThrowsError(try four.pngData())
        XCTAssertThrowsError(try four.jpegData())
        XCTAssertThrowsError(try image.jpegData(quality: 0))
        XCTAssertThrowsError(try image.jpegData(quality: 101))
    }

    func testFormatSniffing() {
        XCTAssertEqual(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        XCTAssertNil(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47]))
        XCTAssertNil(ImageFormat(sniffing: [UInt8]()))
        XCTAssertEqual(ImageFormat(pathExtension: "JPEG"), .jpeg)
        XCTAssertNil(ImageFormat(pathExtension: "gif"))
    }
}

extension PlanarImage {
    /// Values rounded to the nearest `byte / 255`, as a PNG stores them.
    func quantized() -> PlanarImage {
        var copy = self
        copy.pixels = pixels.map { Float(Double(($0 * 255).rounded()) / 255.0) }
        return copy
    }
}
