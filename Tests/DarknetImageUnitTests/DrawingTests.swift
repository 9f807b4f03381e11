import Darknet
@testable import DarknetImage
import XCTest

/// Boxes, labels, the bitmap font and Darknet's class colours.
final class DrawingTests: XCTestCase {
    private let red = RGBColor(red: 1, green: 0, blue: 0)

    func testDrawBoxOutlinesWithThickness() throws {
        var image = try PlanarImage(width: 20, height: 20, channels: 3, filledWith: 0)
        image.drawBox(left: 2, top: 3, right: 12, bottom: 15, color: red, thickness: 2)
        for (x, y, set) in [(2, 3, true), (12, 15, true), (7, 3, true), (7, 4, true), (7, 5, false),
                            (3, 9, true), (4, 9, false), (11, 9, true), (7, 9, false), (1, 3, false), (13, 15, false)] {
            XCTAssertEqual(image[0, y, x], set ? 1 : 0, "(\(x), \(y))")
            XCTAssertEqual(image[1, y, x], 0)
        }
    }

    func testDrawBoxClipsToTheImage() throws {
        var image = try PlanarImage(width: 10, height: 10, channels: 3, filledWith: 0)
        image.drawBox(left: -5, top: -5, right: 50, bottom: 4, color: red)
        XCTAssertEqual(image[0, 0, 0], 1)
        XCTAssertEqual(image[0, 4, 9], 1)
        XCTAssertEqual(image[0, 2, 5], 0)
        var grey = try PlanarImage(width: 5, height: 5, channels: 1, filledWith: 0)
        grey.drawBox(left: 0, top: 0, right: 4, bottom: 4, color: .white)
        XCTAssertEqual(grey[0, 0, 2], 1)
    }

    func testDrawLabelStaysInsideItsBackground() throws {
        var image = try PlanarImage(width: 100, height: 30, channels: 3, filledWith: 0.25)
        image.drawLabel("Dog 5%", x: 10, y: 5, color: .white, scale: 2)
        let (tw, th) = BitmapFont.size(of: "Dog 5%", scale: 2)
        XCTAssertEqual([tw, th], [(6 * 6 - 1) * 2, 14])
        var black = 0
        for y in 0..<30 {
            for x in 0..<100 {
                let inside = (10..<(10 + tw + 4)).contains(x) && (5..<(5 + th + 4)).contains(y)
                let v = image[0, y, x]
                if !inside { XCTAssertEqual(v, 0.25, "(\(x), \(y)) outside the label changed") }
                if v == 0 { black += 1 }
            }
        }
        XCTAssertGreaterThan(black, 40, "text should be drawn in black on white")
        var clipped = try PlanarImage(width: 8, height: 8, channels: 3, filledWith: 0)
        clipped.drawLabel("clipped text", x: -3, y: 5, color: red, scale: 3)
    }

    func testFontCoversPrintableASCII() {
        var seen = Set<[Bool]>()
        for ascii in UInt8(0x21)...UInt8(0x7E) {
            let character = Character(Unicode.Scalar(ascii))
            let bits = (0..<7).flatMap { y in (0..<5).map { x in BitmapFont.isSet(character, x: x, y: y) } }
            XCTAssertTrue(bits.contains(true), "'\(character)' is blank")
            XCTAssertTrue(seen.insert(bits).inserted, "'\(character)' duplicates another glyph")
        }
        XCTAssertFalse((0..<7).contains { y in (0..<5).contains { x in BitmapFont.isSet(" ", x: x, y: y) } })
        XCTAssertEqual((0..<7).map { y in (0..<5).map { BitmapFont.isSet("é", x: $0, y: y) } },
                       (0..<7).map { y in (0..<5).map { BitmapFont.isSet("?", x: $0, y: y) } })
    }

    func testClassColoursFollowDarknet() {
        // Darknet: offset = class * 123457 % classes; ratio = offset / classes * 5 over
        // magenta, red, yellow, green, cyan, blue.
        func darknet(_ k: Int, _ classes: Int) -> RGBColor {
            let table: [[Float]] = [[1, 0, 1], [0, 0, 1], [0, 1, 1], [0, 1, 0], [1, 1, 0], [1, 0, 0]]
            let offset = k * 123_457 % classes
            func channel(_ c: Int) -> Float {
                var ratio = Float(offset) / Float(classes) * 5
                let i = Int(ratio.rounded(.down)), j = Int(ratio.rounded(.up))
                ratio -= Float(i)
                return (1 - ratio) * table[i][c] + ratio * table[j][c]
            }
            return RGBColor(red: channel(2), green: channel(1), blue: channel(0))
        }
        for classes in [1, 2, 20, 80] {
            for k in 0..<classes {
                XCTAssertEqual(RGBColor.forClass(k, of: classes), darknet(k, classes), "class \(k) of \(classes)")
            }
        }
        XCTAssertEqual(RGBColor.forClass(0, of: 80), RGBColor(red: 1, green: 0, blue: 1))
        XCTAssertEqual(RGBColor.forClass(1, of: 80), RGBColor(red: 1, green: 0.0625, blue: 0))
    }

    func testAnnotatedDrawsBoxesAndLabels() throws {
        let image = try PlanarImage(width: 200, height: 150, channels: 3, filledWith: 0)
        let boxes = [BoxAnnotation(label: "dog", classIndex: 16, left: 20, top: 40, right: 120, bottom: 140),
                     BoxAnnotation(label: "car", classIndex: 2, left: 100, top: 0, right: 190, bottom: 60)]
        let out = image.annotated(with: boxes, classCount: 80)
        XCTAssertEqual(image.pixels.max(), 0, "the original is left alone")
        let dog = RGBColor.forClass(16, of: 80)
        XCTAssertEqual([out[0, 100, 20], out[1, 100, 20], out[2, 100, 20]], [dog.red, dog.green, dog.blue])
        // Dog's label sits above its box; car's, with no room above, just inside it.
        // 150 rows: scale 1, so the label strip is 9 rows (31...39); row 31 is padding.
        XCTAssertEqual([out[0, 31, 25], out[1, 31, 25], out[2, 31, 25]], [dog.red, dog.green, dog.blue])
        XCTAssertTrue((32...38).contains { y in (21...37).contains { x in out[0, y, x] == 0 && out[1, y, x] == 0 } },
                      "black text on the yellow strip")
        let car = RGBColor.forClass(2, of: 80)
        XCTAssertEqual([out[0, 2, 101], out[1, 2, 101], out[2, 2, 101]], [car.red, car.green, car.blue])
        XCTAssertEqual(out[0, 90, 60] + out[1, 90, 60] + out[2, 90, 60], 0, "box interiors stay untouched")
    }

    /// Classes drawn as `darknet classifier demo` draws them: white strips at the top left,
    /// `lh` = 3% of the height from the left edge, the first ending at `3 lh`, the next `2 lh` lower.
    func testClassesAreDrawnAsTheClassifierDemoDrawsThem() throws {
        let image = try PlanarImage(width: 300, height: 400, channels: 3, filledWith: 0.25)
        let predictions = [Classification(classIndex: 3, label: "dog", probability: 0.4123),
                           Classification(classIndex: 7, label: "cat", probability: 0.05)]
        let out = image.annotated(with: predictions)
        // 400 rows: lh 12, text scale 2, so each strip is 7 * 2 + 2 * 2 = 18 rows: rows 18...35 and 42...59.
        let white: [Float] = [1, 1, 1]
        for (x, y) in [(12, 18), (12, 35), (12, 42), (12, 59)] {
            XCTAssertEqual([out[0, y, x], out[1, y, x], out[2, y, x]], white, "(\(x), \(y)) is on a strip")
        }
        for (x, y) in [(11, 18), (12, 17), (12, 36), (12, 41), (12, 60), (200, 25)] {
            XCTAssertEqual([out[0, y, x], out[1, y, x], out[2, y, x]], [0.25, 0.25, 0.25], "(\(x), \(y)) is left alone")
        }
        // "41.2%: dog": 10 glyphs 6 columns apart, the last 5 wide, at scale 2 (118 columns), and
        // 2 columns of padding each side: columns 12...133.
        XCTAssertEqual(out[0, 25, 133], 1, "the strip's last column")
        XCTAssertEqual(out[0, 25, 134], 0.25, "past the strip")
        XCTAssertTrue((20...33).contains { y in (14...130).contains { x in out[0, y, x] == 0 } }, "black text")
        XCTAssertEqual(PlanarImage.demoLine(predictions[0]), "41.2%: dog")
        XCTAssertEqual(PlanarImage.demoLine(predictions[1]), "5.0%: cat")
    }
}
