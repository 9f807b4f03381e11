import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Decoding and letterboxing must give Darknet's own numbers, value for value.
///
/// Fixtures come from `Tools/make-fixtures.sh` (Darknet's `load_image_color` and
/// `letterbox_image` through `Tools/darknet-reference`), written to
/// `Fixtures/generated/images/<name>.bin` (float32 LE, CHW), `<name>.txt` (`W H C`) and
/// `<name>-416.bin`; the images are `Weights/darknet/data/<name>.jpg`. A missing file fails
/// the test: run `Weights/fetch.sh` and `Tools/make-fixtures.sh` first.
final class DarknetFidelityTests: XCTestCase {
    static let samples = ["dog", "eagle", "giraffe", "horses", "kite", "person", "scream"]

    static let fixtures = TestPaths.fixtures.appendingPathComponent("images")

    func testDecodedPixelsEqualDarknet() throws {
        for name in Self.samples {
            guard let (image, reference) = try loadPair(name) else { continue }
            let differing = countDiffering(image.pixels, reference)
            XCTAssertEqual(differing, 0, "\(name).jpg: \(differing) of \(reference.count) decoded values differ from Darknet's load_image_color")
        }
    }

    func testLetterbox416EqualsDarknetBitForBit() throws {
        for name in Self.samples {
            guard let (image, _) = try loadPair(name) else { continue }
            guard let reference = readFloats(Self.fixtures.appendingPathComponent("\(name)-416.bin"), what: "\(name) letterbox") else { continue }
            let (boxed, geometry) = try image.letterboxed(width: 416, height: 416)
            XCTAssertEqual(boxed.width, 416)
            XCTAssertEqual(boxed.height, 416)
            XCTAssertEqual(geometry.networkWidth, 416)
            XCTAssertEqual(reference.count, 3 * 416 * 416, "\(name)-416.bin has \(reference.count) values, expected \(3 * 416 * 416)")
            let differing = countDiffering(boxed.pixels, reference)
            XCTAssertEqual(differing, 0, "\(name).jpg letterboxed to 416x416: \(differing) of \(reference.count) values differ from Darknet's letterbox_image")
        }
    }

    // MARK: - Helpers

    /// The decoded sample and Darknet's pixels for it, or `nil` after recording a failure.
    private func loadPair(_ name: String) throws -> (PlanarImage, [Float])? {
        let imageURL = TestPaths.sample("\(name).jpg")
        guard FileManager.default.fileExists(atPath: imageURL.path) else {
            XCTFail("missing sample image \(imageURL.path): run Weights/fetch.sh")
            return nil
        }
        let sizeURL = Self.fixtures.appendingPathComponent("\(name).txt")
        guard let sizeText = try? String(contentsOf: sizeURL, encoding: .utf8) else {
            XCTFail("missing fixture \(sizeURL.path): run Tools/make-fixtures.sh")
            return nil
        }
        let dims = sizeText.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard dims.count >= 3 else {
            XCTFail("fixture \(sizeURL.path) should hold 'W H C', holds '\(sizeText)'")
            return nil
        }
        guard let reference = readFloats(Self.fixtures.appendingPathComponent("\(name).bin"), what: "\(name) pixels") else {
            return nil
        }
        let image = try PlanarImage(contentsOf: imageURL)
        XCTAssertEqual([image.width, image.height, image.channels], Array(dims.prefix(3)), "\(name).jpg size")
        XCTAssertEqual(reference.count, dims[0] * dims[1] * dims[2], "\(name).bin length")
        guard image.pixels.count == reference.count else { return nil }
        return (image, reference)
    }

    private func readFloats(_ url: URL, what: String) -> [Float]? {
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing fixture \(url.path) (\(what)): run Tools/make-fixtures.sh")
            return nil
        }
        do {
            return try readFloatFile(url)
        } catch {
            XCTFail("fixture \(url.path) (\(what)): \(error)")
            return nil
        }
    }

    /// Number of positions whose float bit patterns differ (or the length difference).
    private func countDiffering(_ a: [Float], _ b: [Float]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        var differing = 0
        for i in 0..<a.count where a[i].bitPattern != b[i].bitPattern { differing += 1 }
        return differing
    }
}
