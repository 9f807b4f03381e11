import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// BMP, TIFF, WebP and Netpbm files decode to Darknet's own pixels, value for value.
///
/// The files and Darknet's `load_image_color` of each (OpenCV `imread`) come from
/// `Tools/make-fixtures-formats.sh`, in `Fixtures/generated/formats/`: `NAME` (the file),
/// `NAME.bin` (float32 LE, CHW) and `NAME.txt` (`W H C`). A missing file fails the test.
final class ImageFormatFidelityTests: XCTestCase {
    static let folder = TestPaths.fixtures.appendingPathComponent("formats")

    /// Every variant the fixture script writes; each one must be there.
    static let expected: [String: ImageFormat] = {
        var names: [String: ImageFormat] = [:]
        for name in ["bmp-24", "bmp-32-alpha", "bmp-565", "bmp-555", "bmp-8-palette", "bmp-1-mono",
                     "bmp-rle8", "bmp-rle4", "bmp-4bit", "bmp-1bit-colour", "bmp-8bit-12colours",
                     "bmp-topdown", "bmp-os2", "bmp-os2-palette", "bmp-v5-32"] {
            names[name + ".bmp"] = .bmp
        }
        for name in ["rgb-packbits", "rgb-raw", "rgb-lzw", "rgb-deflate", "rgba-alpha", "rgb-16",
                     "grey", "grey-16", "palette", "mono", "ycbcr", "tiled", "planar", "big-endian", "lzw-predictor",
                     "deflate-predictor-16", "jpeg-ycbcr", "jpeg-rgb", "two-pages"] + (1...8).map({ "orientation-\($0)" }) {
            names["tiff-\(name).tiff"] = .tiff
        }
        for name in ["lossy", "lossless", "lossy-alpha", "lossless-alpha"] {
            names["webp-\(name).webp"] = .webp
        }
        for name in ["p6.ppm", "p6-16.ppm", "p5.pgm", "p5-16.pgm", "p4.pbm", "p1.pbm", "p2.pgm",
                     "p3.ppm", "p5-maxval100.pgm", "p6-maxval1000.ppm", "p2-maxval65535.pgm", "p2-maxval100.pgm"] {
            names["pnm-" + name] = .netpbm
        }
        return names
    }()

    func testEveryFileDecodesToDarknetsPixels() throws {
        XCTAssertEqual(Self.expected.count, 58)
        for (name, format) in Self.expected.sorted(by: { $0.key < $1.key }) {
            let url = Self.folder.appendingPathComponent(name)
            guard let bytes = try? Data(contentsOf: url) else {
                XCTFail("missing \(url.path): run Tools/make-fixtures.sh")
                continue
            }
            XCTAssertEqual(ImageFormat(sniffing: bytes), format, "\(name): sniffed format")
            XCTAssertEqual(ImageFormat(pathExtension: url.pathExtension), format, "\(name): extension")
            guard let reference = readReference(name) else { continue }
            let image: PlanarImage
            do {
                image = try PlanarImage(contentsOf: url)
            } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            XCTAssertEqual([image.width, image.height, image.channels], reference.size, "\(name): size")
            guard image.pixels.count == reference.pixels.count else { continue }
            var differing = 0, largest: Float = 0
            for (ours, theirs) in zip(image.pixels, reference.pixels) where ours != theirs {
                differing += 1
                largest = max(largest, abs(ours - theirs) * 255)
            }
            XCTAssertEqual(differing, 0, "\(name): \(differing) of \(reference.pixels.count) values differ from Darknet's load_image_color (largest by \(largest)/255)")
        }
    }

    /// HEIC and AVIF (which Darknet does not read) decode to libheif's own pixels
    /// (`heif-convert`'s PNG, alpha dropped), and the lossless one to the source's.
    func testHEIFDecodesToLibheifsPixels() throws {
        let names = ["heic-lossy.heic", "heic-444.heic", "heic-lossless.heic", "heic-alpha.heic",
                     "avif-lossy.avif", "avif-alpha.avif"]
        for name in names {
            let url = Self.folder.appendingPathComponent("heif/" + name)
            let referenceURL = Self.folder.appendingPathComponent("heif/\(name).png")
            guard let bytes = try? Data(contentsOf: url), FileManager.default.fileExists(atPath: referenceURL.path) else {
                XCTFail("missing \(url.path) or its .png: run Tools/make-fixtures.sh")
                continue
            }
            XCTAssertEqual(ImageFormat(sniffing: bytes), .heif, name)
            XCTAssertEqual(ImageFormat(pathExtension: url.pathExtension), .heif, name)
            let image = try PlanarImage(contentsOf: url), reference = try PlanarImage(contentsOf: referenceURL)
            XCTAssertEqual([image.width, image.height, image.channels], [97, 73, 3], name)
            XCTAssertEqual(image, reference, "\(name): differs from heif-convert's pixels")
        }
        // The lossless file is the source to within the RGB -> YCbCr -> RGB rounding.
        let lossless = try PlanarImage(contentsOf: Self.folder.appendingPathComponent("heif/heic-lossless.heic"))
        let source = try PlanarImage(contentsOf: Self.folder.appendingPathComponent("pnm-p6.ppm"))
        let largest = maxAbsDifference(lossless.pixels, source.pixels)
        XCTAssertLessThanOrEqual(largest * 255, 3.01, "lossless HEIC against its source")
    }

    /// The samples are not trivial: colour, the alpha files' transparent corner composited
    /// or not as `imread` does, RLE gaps.
    func testSamplesAreNotTrivial() throws {
        for (name, distinct) in [("tiff-rgba-alpha.tiff", 200), ("webp-lossy.webp", 200), ("pnm-p3.ppm", 200), ("bmp-rle8.bmp", 8)] {
            guard let reference = readReference(name) else { continue }
            XCTAssertGreaterThanOrEqual(Set(reference.pixels).count, distinct, "\(name): Darknet's pixels have few distinct values")
        }
        // Orientations 5 to 8 transpose: 73x97.
        XCTAssertEqual(readReference("tiff-orientation-6.tiff")?.size, [73, 97, 3])
        // libtiff premultiplies unassociated alpha (column 0 has alpha = row): the top-left
        // pixel is black in Darknet's pixels, but not in the BMP with the same alpha.
        if let tiff = readReference("tiff-rgba-alpha.tiff"), let bmp = readReference("bmp-32-alpha.bmp") {
            XCTAssertEqual(tiff.pixels[0], 0)
            XCTAssertGreaterThan(bmp.pixels[0], 0.1)
        }
    }

    private func readReference(_ name: String) -> (size: [Int], pixels: [Float])? {
        let sizeURL = Self.folder.appendingPathComponent(name + ".txt")
        let binURL = Self.folder.appendingPathComponent(name + ".bin")
        guard let sizeText = try? String(contentsOf: sizeURL, encoding: .utf8), let data = try? Data(contentsOf: binURL) else {
            XCTFail("missing \(sizeURL.path) or \(binURL.path): run Tools/make-fixtures.sh")
            return nil
        }
        let size = sizeText.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(3).compactMap { Int($0) }
        let pixels = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
        XCTAssertEqual(size.count == 3 ? size.reduce(1, *) : -1, pixels.count, "\(name): reference size")
        return (size, pixels)
    }
}
