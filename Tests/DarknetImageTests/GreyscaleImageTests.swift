import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `PlanarImage(contentsOf:channels: 1)`, what a greyscale (`channels=1`) network is fed: byte
/// for byte what AlexeyAB's darknet built with OpenCV loads for it, `imread(IMREAD_GRAYSCALE)`,
/// as recorded by `Tools/greyscale/grey_imread.py` (OpenCV 4.14) in `grey-imread.txt`: Darknet's
/// seven sample JPEGs (libjpeg's own grey), and dog.jpg's pixels as PNG (libpng's rgb_to_gray)
/// and as binary PPM (`cvtColor`).
final class GreyscaleImageTests: XCTestCase {
    /// `name -> (width, height, FNV-1a 64 of the grey bytes)` from the recorded file.
    static func recorded() throws -> [String: (width: Int, height: Int, hash: String)] {
        let file = TestPaths.packageRoot.appendingPathComponent("Tools/greyscale/grey-imread.txt")
        var lines: [String: (Int, Int, String)] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]) else {
                XCTFail("grey-imread.txt: malformed line '\(line)'")
                continue
            }
            lines[fields[0]] = (width, height, fields[3])
        }
        return lines
    }

    /// The grey bytes of a one-channel image and their FNV-1a 64 hash.
    static func hash(_ image: PlanarImage) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in image.pixels { hash = (hash ^ UInt64(UInt8((value * 255).rounded()))) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    func testOneChannelIsOpenCVsGreyscaleRead() throws {
        let recorded = try Self.recorded()
        XCTAssertEqual(recorded.count, 9)
        let folder = try temporaryDirectory("grey")
        var files: [(String, URL)] = ["dog", "eagle", "giraffe", "horses", "kite", "person", "scream"].map {
            ("\($0).jpg", TestPaths.sample("\($0).jpg"))
        }
        // dog.jpg's colour pixels (OpenCV's IMREAD_COLOR bytes, which PlanarImage reproduces) as a
        // PNG and a binary PPM, as the script writes them with imwrite.
        let dog = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let png = folder.appendingPathComponent("dog.png"), ppm = folder.appendingPathComponent("dog.ppm")
        try Data(try dog.pngData()).write(to: png)
        let area = dog.width * dog.height
        var bytes = Array("P6\n\(dog.width) \(dog.height)\n255\n".utf8)
        for i in 0..<area {
            for c in 0..<3 { bytes.append(UInt8((dog.pixels[c * area + i] * 255).rounded())) }
        }
        try Data(bytes).write(to: ppm)
        files += [("dog-pixels.png", png), ("dog-pixels.ppm", ppm)]

        for (name, url) in files {
            let expected = try XCTUnwrap(recorded[name], name)
            let grey = try PlanarImage(contentsOf: try TestPaths.require(url), channels: 1)
            XCTAssertEqual(grey.channels, 1, name)
            XCTAssertEqual([grey.width, grey.height], [expected.width, expected.height], name)
            XCTAssertEqual(Self.hash(grey), expected.hash, "\(name): not the bytes OpenCV's IMREAD_GRAYSCALE gives")
        }
        // The JPEG's grey is its luma as decoded, not the colour pixels weighted afterwards:
        // that would differ (1,816 of dog's 442,368 pixels in OpenCV's own cvtColor).
        let weighted = try PlanarImage(contentsOf: ppm, channels: 1)
        let fromJPEG = try PlanarImage(contentsOf: TestPaths.sample("dog.jpg"), channels: 1)
        XCTAssertNotEqual(weighted.pixels, fromJPEG.pixels)

        // Three channels are the colour read; other counts are an ArgumentError; data works too.
        XCTAssertEqual(try PlanarImage(contentsOf: png, channels: 3), try PlanarImage(contentsOf: png))
        XCTAssertEqual(try PlanarImage(data: try dog.pngData(), channels: 1).pixels, try PlanarImage(contentsOf: png, channels: 1).pixels)
        XCTAssertThrowsError(try PlanarImage(contentsOf: png, channels: 2)) { error in
            XCTAssertEqual(error as? ArgumentError, ArgumentError(argument: "channels", value: "2", expected: "1 or 3"))
        }
    }
}
