import Darknet
import TestSupport
import XCTest

/// `resized`, `letterboxed` and `stretched` against a plain transcription of Darknet's
/// `resize_image` / `letterbox_image`, plus the geometry cases detection relies on.
final class ResizeTests: XCTestCase {
    // MARK: Geometry

    func testLetterboxGeometry() {
        let cases: [(w: Int, h: Int, rw: Int, rh: Int, ox: Int, oy: Int)] = [
            (1920, 1080, 416, 234, 0, 91),   // landscape
            (1080, 1920, 234, 416, 91, 0),   // portrait
            (500, 500, 416, 416, 0, 0),      // square
            (768, 576, 416, 312, 0, 52),     // dog.jpg
            (1, 100, 4, 416, 206, 0),        // width 1
            (100, 1, 416, 4, 0, 206),        // height 1
            (1, 1, 416, 416, 0, 0),
            (1000, 1, 416, 1, 0, 207),       // Darknet would compute 0 rows; clamped to 1
        ]
        for c in cases {
            let g = LetterboxGeometry(imageWidth: c.w, imageHeight: c.h, networkWidth: 416, networkHeight: 416)
            XCTAssertEqual([g.resizedWidth, g.resizedHeight, g.offsetX, g.offsetY], [c.rw, c.rh, c.ox, c.oy], "\(c.w)x\(c.h)")
        }
    }

    func testLetterboxPastesResizedImageOnGreyCanvas() throws {
        for (w, h) in [(1920, 1080), (1080, 1920), (500, 500), (1, 100), (100, 1), (1, 1), (33, 7)] {
            let image = try randomImage(width: w, height: h, seed: UInt64(w * 7919 + h))
            let (boxed, g) = try image.letterboxed(width: 416, height: 416)
            XCTAssertEqual([boxed.width, boxed.height, boxed.channels], [416, 416, 3])
            XCTAssertEqual(g, LetterboxGeometry(imageWidth: w, imageHeight: h, networkWidth: 416, networkHeight: 416))
            let resized = try image.resized(width: g.resizedWidth, height: g.resizedHeight)
            for c in 0..<3 {
                for y in 0..<416 {
                    for x in 0..<416 {
                        let inside = (g.offsetX..<(g.offsetX + g.resizedWidth)).contains(x)
                            && (g.offsetY..<(g.offsetY + g.resizedHeight)).contains(y)
                        let expected = inside ? resized[c, y - g.offsetY, x - g.offsetX] : 0.5
                        if boxed[c, y, x].bitPattern != expected.bitPattern {
                            XCTFail("\(w)x\(h): value at c\(c) (\(x), \(y)) is \(boxed[c, y, x]), expected \(expected)")
                            return
                        }
                    }
                }
            }
        }
    }

    func testStretchedIsPlainResizeWithFullGeometry() throws {
        let image = try randomImage(width: 50, height: 30, seed: 3)
        let (stretched, g) = try image.stretched(width: 64, height: 48)
        XCTAssertEqual(stretched, try image.resized(width: 64, height: 48))
        XCTAssertEqual([g.resizedWidth, g.resizedHeight, g.offsetX, g.offsetY], [64, 48, 0, 0])
        XCTAssertEqual([g.imageWidth, g.imageHeight], [50, 30])
    }

    // MARK: Values

    func testResizeMatchesDarknetTranscription() throws {
        let sizes: [(Int, Int, Int, Int)] = [
            (1920, 1080, 416, 234), (768, 576, 416, 312), (10, 10, 23, 17), (23, 17, 10, 10),
            (1, 1, 5, 5), (1, 7, 4, 3), (7, 1, 3, 4), (5, 5, 1, 1), (5, 5, 1, 7), (5, 5, 7, 1),
            (2, 2, 2, 2), (300, 200, 300, 200),
        ]
        for (w, h, nw, nh) in sizes {
            let image = try randomImage(width: w, height: h, seed: UInt64(w * 31 + h * 17 + nw * 7 + nh))
            let ours = try image.resized(width: nw, height: nh)
            let reference = darknetResize(image, nw, nh)
            XCTAssertEqual([ours.width, ours.height, ours.channels], [nw, nh, 3])
            let differing = zip(ours.pixels, reference).filter { $0.bitPattern != $1.bitPattern }.count
            XCTAssertEqual(differing, 0, "\(w)x\(h) -> \(nw)x\(nh)")
        }
    }

    /// The last output row is `(1 - dy) * row[iy]` even when `dy` is nearly 1, because
    /// `(newH - 1) * hScale` can round just below `H - 1`: a nearly black last row.
    func testLastRowQuirkIsReproduced() throws {
        var found: (h: Int, nh: Int)?
        search: for h in 2...400 {
            for nh in 2...400 {
                let scale = Float(h - 1) / Float(nh - 1)
                if Float(nh - 1) * scale < Float(h - 1) { found = (h, nh); break search }
            }
        }
        let (h, nh) = try XCTUnwrap(found, "no size pair shows the quirk")
        let white = try PlanarImage(width: 3, height: h, channels: 3, filledWith: 1)
        let resized = try white.resized(width: 3, height: nh)
        let lastRow = resized[0, nh - 1, 0]
        XCTAssertLessThan(lastRow, 0.01, "\(h) -> \(nh) rows: the last row should come out nearly black")
        XCTAssertEqual(resized[0, nh - 2, 0], 1, accuracy: 1e-6)
    }

    func testOnePixelTargetsTakeDarknetsSourcePixels() throws {
        let image = try randomImage(width: 6, height: 4, seed: 11)
        let one = try image.resized(width: 1, height: 1)
        // Last column (W - 1), first row (Darknet's 0 * inf is NaN there; we take row 0).
        for c in 0..<3 { XCTAssertEqual(one[c, 0, 0], image[c, 0, 5]) }
    }

    func testInvalidSizesThrow() throws {
        let image = try randomImage(width: 4, height: 4, seed: 1)
        for (w, h) in [(0, 4), (4, 0), (-1, 4), (4, -3)] {
            XCTAssertThrowsError(try image.resized(width: w, height: h)) { error in
                XCTAssertEqual(error as? ImageError, .invalidDimensions(width: w, height: h, channels: 3))
            }
            XCTAssertThrowsError(try image.letterboxed(width: w, height: h))
            XCTAssertThrowsError(try image.stretched(width: w, height: h))
        }
    }

    // MARK: Helpers

    private func randomImage(width: Int, height: Int, seed: UInt64) throws -> PlanarImage {
        var random = TestRandom(seed: seed)
        let pixels = (0..<(3 * width * height)).map { _ in Float(random.next(below: 256)) / 255 }
        return try PlanarImage(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// Darknet's `resize_image`, transcribed loop for loop (float32, same order).
    private func darknetResize(_ im: PlanarImage, _ w: Int, _ h: Int) -> [Float] {
        var part = [Float](repeating: 0, count: w * im.height * im.channels)
        var resized = [Float](repeating: 0, count: w * h * im.channels)
        let wScale = Float(im.width - 1) / Float(w - 1)
        let hScale = Float(im.height - 1) / Float(h - 1)
        for k in 0..<im.channels {
            for r in 0..<im.height {
                for c in 0..<w {
                    var val: Float = 0
                    if c == w - 1 || im.width == 1 {
                        val = im[k, r, im.width - 1]
                    } else {
                        let sx = Float(c) * wScale
                        let ix = Int(sx)
                        let dx = sx - Float(ix)
                        val = (1 - dx) * im[k, r, ix] + dx * im[k, r, ix + 1]
                    }
                    part[(k * im.height + r) * w + c] = val
                }
            }
        }
        for k in 0..<im.channels {
            for r in 0..<h {
                let sy = h == 1 ? 0 : Float(r) * hScale
                let iy = Int(sy)
                let dy = sy - Float(iy)
                for c in 0..<w {
                    resized[(k * h + r) * w + c] = (1 - dy) * part[(k * im.height + iy) * w + c]
                }
                if r == h - 1 || im.height == 1 { continue }
                for c in 0..<w {
                    resized[(k * h + r) * w + c] += dy * part[(k * im.height + iy + 1) * w + c]
                }
            }
        }
        return resized
    }
}
