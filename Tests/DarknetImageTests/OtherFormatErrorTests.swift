import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Damaged, truncated, oversized and refused BMP, TIFF, WebP and Netpbm files give a typed
/// `ImageFileError` naming the file, and where the format is parsed here, the byte offset.
final class OtherFormatErrorTests: XCTestCase {
    static let folder = ImageFormatFidelityTests.folder

    private func sample(_ name: String) throws -> [UInt8] {
        let url = Self.folder.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else {
            XCTFail("missing \(url.path): run Tools/make-fixtures.sh")
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](data)
    }

    func testRefusedVariantsAreUnsupportedVariantErrors() throws {
        for (name, words) in [("webp-animated.webp", "animation"), ("tiff-float.tiff", "32-bit samples"),
                              ("bmp-jpeg.bmp", "JPEG")] {
            let url = Self.folder.appendingPathComponent("refused/" + name)
            assertError(try PlanarImage(contentsOf: url), name) {
                guard case .unsupportedVariant(let path, let reason) = $0 else { return false }
                return path == url.path && reason.contains(words)
            }
        }
    }

    func testTruncatedFilesAreCorrupt() throws {
        let names = ["bmp-24.bmp", "bmp-rle8.bmp", "bmp-rle4.bmp", "bmp-1-mono.bmp", "bmp-565.bmp",
                     "tiff-rgb-raw.tiff", "tiff-rgb-lzw.tiff", "tiff-rgb-deflate.tiff", "tiff-ycbcr.tiff",
                     "webp-lossy.webp", "webp-lossless.webp", "webp-lossy-alpha.webp",
                     "pnm-p6.ppm", "pnm-p6-16.ppm", "pnm-p4.pbm", "pnm-p1.pbm", "pnm-p3.ppm",
                     "heif/heic-lossy.heic", "heif/avif-lossy.avif", "heif/heic-alpha.heic"]
        for name in names {
            let bytes = try sample(name)
            for fraction in [0.02, 0.3, 0.6, 0.9] {
                let length = max(13, Int(Double(bytes.count) * fraction))
                assertError(try PlanarImage(data: Array(bytes.prefix(length))), "\(name) cut to \(length) of \(bytes.count) bytes") {
                    guard case .corrupt(let path, let reason) = $0 else { return false }
                    return path == PlanarImage.inMemoryPath && !reason.isEmpty
                }
            }
        }
    }

    func testSizeLimitIsCheckedBeforeDecoding() throws {
        for name in ["bmp-24.bmp", "bmp-rle8.bmp", "tiff-rgb-lzw.tiff", "webp-lossy.webp", "pnm-p6.ppm", "pnm-p3.ppm",
                     "heif/heic-lossy.heic", "heif/avif-lossy.avif"] {
            let url = Self.folder.appendingPathComponent(name)
            assertError(try PlanarImage(contentsOf: url, maxPixels: 97 * 73 - 1), name) {
                $0 == .tooLarge(path: url.path, width: 97, height: 73, limit: 97 * 73 - 1)
            }
            XCTAssertNoThrow(try PlanarImage(contentsOf: url, maxPixels: 97 * 73), name)
        }
        // A BMP header claiming 70000 x 2 and nothing else: refused by its header.
        var huge = try sample("bmp-24.bmp").prefix(54)
        huge.replaceSubrange(18..<22, with: [0x70, 0x11, 0x01, 0x00])
        huge.replaceSubrange(22..<26, with: [2, 0, 0, 0])
        assertError(try PlanarImage(data: Array(huge))) { $0 == .tooLarge(path: PlanarImage.inMemoryPath, width: 70000, height: 2, limit: 100_000_000) }
    }

    func testBMPHeaderErrorsNameTheByte() throws {
        var bytes = try sample("bmp-24.bmp")
        bytes[14] = 20  // header size
        assertError(try PlanarImage(data: bytes)) { imageErrorReason($0).contains("header size 20 at byte 14") }
        bytes = try sample("bmp-24.bmp")
        bytes[28] = 2  // 2 bits per pixel
        assertError(try PlanarImage(data: bytes)) {
            guard case .unsupportedVariant(_, let reason) = $0 else { return false }
            return reason.contains("2 bits per pixel") && reason.contains("byte")
        }
        bytes = try sample("bmp-565.bmp")
        bytes[58...59] = [0xF0, 0x00]  // green mask 0xF0: a 4-4-4 layout
        assert(bytes[30] == 3)
        assertError(try PlanarImage(data: bytes)) {
            guard case .unsupportedVariant(_, let reason) = $0 else { return false }
            return reason.contains("16-bit bit fields 0xF800 0xF0 0x1F at byte 54")
        }
        bytes = try sample("bmp-8-palette.bmp")
        bytes[10...13] = [0xF0, 0xFF, 0, 0]  // pixel data offset past the end
        assertError(try PlanarImage(data: bytes)) { imageErrorReason($0).contains("bytes 65520..<") }
    }
}
