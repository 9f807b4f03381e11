import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Netpbm headers parsed from bytes in memory (each error naming its byte) and the formats that
/// are written; the damaged files of every format are `OtherFormatErrorTests`' (they need the
/// generated fixtures).
final class NetpbmAndWritingTests: XCTestCase {
    func testNetpbmHeaderErrorsNameTheByte() {
        assertError(try PlanarImage(data: Array("P6\n97 x3\n255\n".utf8))) { imageErrorReason($0).contains("the height expected at byte 6, found 'x'") }
        assertError(try PlanarImage(data: Array("P5 4 3 0\n".utf8))) { imageErrorReason($0).contains("maxval 0") }
        assertError(try PlanarImage(data: Array("P5 4 3 70000\n".utf8))) { imageErrorReason($0).contains("maxval 70000") }
        assertError(try PlanarImage(data: Array("P1 2 2\n1 0 2 1\n".utf8))) { imageErrorReason($0).contains("bit expected at byte 11") }
        assertError(try PlanarImage(data: Array("P6 0 3 255\n".utf8))) { imageErrorReason($0).contains("size 0x3") }
    }

    func testNetpbmCommentsAndPlainBitmaps() throws {
        // P1 digits need no separators; comments may sit between any two numbers.
        let image = try PlanarImage(data: Array("P1 # c\n3 # width\n2\n101\n0#\n1 0\n".utf8))
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(Array(image.pixels.prefix(6)), [0, 1, 0, 1, 0, 1])
        // Plain samples above maxval count as maxval; binary ones are taken as stored.
        let plain = try PlanarImage(data: Array("P2 2 1 100 100 250\n".utf8))
        XCTAssertEqual(plain.pixels[0], plain.pixels[1])
        XCTAssertEqual(plain.pixels[0], 1)
        let binary = try PlanarImage(data: Array("P5 2 1 100\n".utf8) + [100, 250])
        XCTAssertEqual(binary.pixels[1], Float(Double(250) / 255))
    }

    func testOnlyJPEGAndPNGAreWritten() throws {
        let image = try PlanarImage(width: 2, height: 2, channels: 3, pixels: [Float](repeating: 0.5, count: 12))
        let url = try temporaryDirectory("bmp-write").appendingPathComponent("image.bmp")
        XCTAssertThrowsError(try image.write(to: url)) {
            XCTAssertEqual($0 as? ImageFileError, .writeFailed(path: url.path, reason: "bmp is read, not written: use .png, .jpg or .jpeg"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        XCTAssertEqual(ImageFormat.allCases.filter(\.isWritable), [.jpeg, .png])
    }
}
