import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Bad input gives a typed `ImageFileError` naming the file: never a crash, never a print.
final class DecodingErrorTests: XCTestCase {
    func testEmptyDataIsUnreadable() {
        assertError(try PlanarImage(data: [UInt8]())) {
            guard case .unreadable(let path, _) = $0 else { return false }
            return path == PlanarImage.inMemoryPath
        }
    }

    func testNotAnImageIsUnsupported() {
        assertError(try PlanarImage(data: Array("hello, world".utf8))) { $0 == .unsupportedFormat(path: PlanarImage.inMemoryPath) }
        assertError(try PlanarImage(data: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])) { $0 == .unsupportedFormat(path: PlanarImage.inMemoryPath) }
        assertError(try PlanarImage(data: [0xFF, 0xD8])) { $0 == .unsupportedFormat(path: PlanarImage.inMemoryPath) }
    }

    func testTruncatedJPEGIsCorrupt() throws {
        let jpeg = try gradientImage(width: 64, height: 48).jpegData()
        for length in [3, 20, jpeg.count / 2, jpeg.count - 40] {
            assertError(try PlanarImage(data: Array(jpeg.prefix(length))), "JPEG cut to \(length) of \(jpeg.count) bytes") {
                guard case .corrupt(let path, _) = $0 else { return false }
                return path == PlanarImage.inMemoryPath
            }
        }
    }

    /// Many cameras and tools drop the final EOI marker; every pixel is still there and
    /// Darknet reads such files, so they decode normally.
    func testJPEGMissingOnlyEOIDecodes() throws {
        let jpeg = try gradientImage(width: 64, height: 48).jpegData()
        XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])
        XCTAssertEqual(try PlanarImage(data: Array(jpeg.dropLast(2))), try PlanarImage(data: jpeg))
    }

    func testTruncatedPNGIsCorrupt() throws {
        let png = try gradientImage(width: 64, height: 48).pngData()
        for length in [9, 30, png.count / 2, png.count - 12, png.count - 1] {
            assertError(try PlanarImage(data: Array(png.prefix(length))), "PNG cut to \(length) of \(png.count) bytes") {
                guard case .corrupt = $0 else { return false }
                return true
            }
        }
    }

    func testPNGHeaderClaimingHugeSizeIsRefusedBeforeDecoding() {
        // Nothing follows IHDR: had the decoder gone on to allocate and read, it would fail
        // as corrupt instead.
        for (w, h) in [(100_000, 100_000), (20_000, 20_000), (70_000, 1)] {
            let png = ImageBytes.pngHeaderOnly(width: w, height: h)
            assertError(try PlanarImage(data: png), "\(w)x\(h)") { $0 == .tooLarge(path: PlanarImage.inMemoryPath, width: w, height: h, limit: 100_000_000) }
        }
    }

    func testJPEGHeaderClaimingHugeSizeIsRefusedBeforeDecoding() {
        for (w, h) in [(65_535, 65_535), (20_000, 20_000)] {
            let jpeg = ImageBytes.jpegHeaderOnly(width: w, height: h)
            assertError(try PlanarImage(data: jpeg), "\(w)x\(h)") { $0 == .tooLarge(path: PlanarImage.inMemoryPath, width: w, height: h, limit: 100_000_000) }
        }
    }

    func testMaxPixelsIsHonoured() throws {
        let image = try gradientImage(width: 40, height: 30)
        for data in [try image.pngData(), try image.jpegData()] {
            assertError(try PlanarImage(data: data, maxPixels: 1_199)) { $0 == .tooLarge(path: PlanarImage.inMemoryPath, width: 40, height: 30, limit: 1_199) }
            XCTAssertNoThrow(try PlanarImage(data: data, maxPixels: 1_200))
        }
    }

    func testFileErrorsNameThePath() throws {
        let directory = try temporaryDirectory("image-errors")
        let missing = directory.appendingPathComponent("no-such-image.jpg")
        assertError(try PlanarImage(contentsOf: missing)) {
            guard case .unreadable(let path, let reason) = $0 else { return false }
            return path == missing.path && !reason.isEmpty
        }
        assertError(try PlanarImage(contentsOf: directory)) {
            guard case .unreadable(let path, _) = $0 else { return false }
            return path == directory.path
        }
        assertError(try PlanarImage(contentsOf: URL(string: "https://example.com/dog.jpg")!)) {
            guard case .unreadable = $0 else { return false }
            return true
        }
        let garbage = directory.appendingPathComponent("garbage.png")
        try Data("not an image".utf8).write(to: garbage)
        assertError(try PlanarImage(contentsOf: garbage)) { $0 == .unsupportedFormat(path: garbage.path) }
    }

    /// Damaged files of both formats: any outcome but a crash is acceptable, and a failure
    /// must be an `ImageFileError`.
    func testDamagedDataNeverCrashes() throws {
        let image = try gradientImage(width: 33, height: 21)
        var random = TestRandom(seed: 42)
        for original in [try image.jpegData(), try image.pngData()] {
            for _ in 0..<150 {
                var damaged = original
                switch random.next(below: 3) {
                case 0:
                    damaged = Array(damaged.prefix(random.next(below: damaged.count)))
                case 1:
                    for _ in 0..<(1 + random.next(below: 8)) {
                        damaged[random.next(below: damaged.count)] = UInt8(random.next(below: 256))
                    }
                default:
                    let at = random.next(below: damaged.count)
                    damaged.insert(contentsOf: (0..<random.next(below: 40)).map { _ in UInt8(random.next(below: 256)) }, at: at)
                }
                do {
                    let decoded = try PlanarImage(data: damaged)
                    XCTAssertEqual(decoded.pixels.count, decoded.width * decoded.height * 3)
                } catch {
                    // Typed throws: the error is an ImageFileError by construction.
                }
            }
        }
    }
}
