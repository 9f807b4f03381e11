@testable import Darknet
import XCTest

/// Where tiles go: DarkHelp's automatic grid and SAHI's slices.
final class TileLayoutTests: XCTestCase {
    private func regions(_ width: Int, _ height: Int, _ options: TilingOptions = TilingOptions()) -> [PixelRegion] {
        TileLayout.regions(imageWidth: width, imageHeight: height, networkWidth: 416, networkHeight: 416, options: options)
    }

    func testAutomaticTilesOnlyImagesAboutOneAndAHalfTimesTheNetwork() {
        XCTAssertEqual(regions(623, 416), [PixelRegion(x: 0, y: 0, width: 623, height: 416)], "623 / 416 rounds to 1")
        XCTAssertEqual(regions(600, 600), [PixelRegion(x: 0, y: 0, width: 600, height: 600)])
        let wide = regions(624, 416)
        XCTAssertEqual(wide.count, 3, "624 / 416 = 1.5 rounds to 2 columns (as C's round); the whole image first")
        XCTAssertEqual(wide[0], PixelRegion(x: 0, y: 0, width: 624, height: 416))
    }

    func testAutomaticGridOf4KFrames() {
        let tiles = regions(3840, 2160).dropFirst()
        XCTAssertEqual(tiles.count, 9 * 5, "round(3840 / 416) x round(2160 / 416)")
        let columns = Array(Set(tiles.map(\.x))).sorted(), rows = Array(Set(tiles.map(\.y))).sorted()
        XCTAssertEqual(columns.count, 9)
        XCTAssertEqual(rows.count, 5)
        for tile in tiles {
            XCTAssertEqual(tile.width, 519, "3840 / (9 - 8 x 0.2), rounded up")
            XCTAssertEqual(tile.height, 515)
        }
        XCTAssertEqual(columns.first, 0)
        XCTAssertEqual(columns.last! + 519, 3840, "edge to edge")
        XCTAssertEqual(rows.last! + 515, 2160)
        for (a, b) in zip(columns, columns.dropFirst()) { XCTAssertGreaterThanOrEqual(a + 519 - b, Int(0.2 * 519)) }
        var noOverlap = TilingOptions(overlap: 0, includesFullImage: false)
        XCTAssertEqual(regions(1248, 416, noOverlap), [PixelRegion(x: 0, y: 0, width: 416, height: 416),
                                                        PixelRegion(x: 416, y: 0, width: 416, height: 416),
                                                        PixelRegion(x: 832, y: 0, width: 416, height: 416)], "DarkHelp's own tiles")
        noOverlap.includesFullImage = true
        XCTAssertEqual(regions(1248, 416, noOverlap).first, PixelRegion(x: 0, y: 0, width: 1248, height: 416))
    }

    func testSlicesOfAGivenSize() {
        let options = TilingOptions(tileSize: .pixels(width: 400, height: 300), includesFullImage: false)
        let tiles = regions(1000, 300, options)
        XCTAssertEqual(tiles.map(\.x), [0, 320, 600], "steps of 400 - 80, the last flush with the edge")
        XCTAssertTrue(tiles.allSatisfy { $0.width == 400 && $0.height == 300 && $0.y == 0 })
        XCTAssertEqual(regions(300, 200, options), [PixelRegion(x: 0, y: 0, width: 300, height: 200)],
                       "a tile larger than the image is the image: one pass, whatever includesFullImage says")
        XCTAssertEqual(regions(400, 300, TilingOptions(tileSize: .pixels(width: 400, height: 300))),
                       [PixelRegion(x: 0, y: 0, width: 400, height: 300)], "the size of one tile: not run twice")
    }
}
