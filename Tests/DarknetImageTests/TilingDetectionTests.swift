@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Detection on tiles (`DetectionOptions.tiling`) with YOLOv3-tiny's real weights: small
/// objects on a 4K frame, the single-tile case, an object cut by a tile edge, tiles side by side,
/// and the live pipeline.
final class TilingDetectionTests: XCTestCase {
    private func detector(threads: Int = 2) throws -> Detector { try TinyYOLO.detector(threads: threads) }

    private func photo(_ name: String) throws -> PlanarImage {
        try PlanarImage(contentsOf: TestPaths.sample(name))
    }

    /// A grey canvas with `pieces` pasted on it (each already sized), and where each went.
    private func canvas(width: Int, height: Int, _ pieces: [(image: PlanarImage, x: Int, y: Int)]) throws -> PlanarImage {
        var canvas = try PlanarImage(width: width, height: height, channels: 3, filledWith: 0.5)
        for (image, x0, y0) in pieces {
            for c in 0..<3 {
                for y in 0..<image.height {
                    for x in 0..<image.width { canvas[c, y0 + y, x0 + x] = image[c, y, x] }
                }
            }
        }
        return canvas
    }

    /// Darknet's sample photos shrunk to about 200 pixels and spread over a `width x height`
    /// frame (3840x2160 by default), with a class each one shows: a 416x416 input shrinks a 4K
    /// frame 9 times, and them with it.
    private func spreadFrame(width: Int = 3840, height: Int = 2160) throws
        -> (image: PlanarImage, objects: [(classIndex: Int, region: PixelRegion)]) {
        let placed: [(String, Int, Int, Double, Double)] = [
            ("dog.jpg", 1, 230, 0.08, 0.09), ("person.jpg", 0, 200, 0.39, 0.42), ("horses.jpg", 17, 240, 0.755, 0.69),
            ("eagle.jpg", 14, 200, 0.21, 0.79), ("giraffe.jpg", 23, 180, 0.885, 0.14)]
        var pieces: [(PlanarImage, Int, Int)] = []
        var objects: [(Int, PixelRegion)] = []
        for (name, classIndex, size, fx, fy) in placed {
            let image = try photo(name)
            let small = try image.resized(width: size, height: image.height * size / image.width)
            let (x, y) = (Int(fx * Double(width)), Int(fy * Double(height)))
            pieces.append((small, x, y))
            objects.append((classIndex, PixelRegion(x: x, y: y, width: small.width, height: small.height)))
        }
        return (try canvas(width: width, height: height, pieces), objects)
    }

    /// The synchronous `detect` (an `async` test would pick the `async` one).
    private static func detect(_ image: PlanarImage, with detector: Detector, options: DetectionOptions) throws -> [Detection] {
        try detector.detect(image, options: options)
    }

    private static func detect(_ pixels: PixelBuffer, with detector: Detector, options: DetectionOptions) throws -> [Detection] {
        try detector.detect(pixels, options: options)
    }

    private func finds(_ detections: [Detection], _ classIndex: Int, in region: PixelRegion) -> Bool {
        detections.contains { d in
            let cx = (d.rect.left + d.rect.right) / 2, cy = (d.rect.top + d.rect.bottom) / 2
            return d.classIndex == classIndex && cx >= region.x && cx < region.x + region.width
                && cy >= region.y && cy < region.y + region.height
        }
    }

    func testSmallObjectsOnA4KFrameAreFoundWithTilesAndNotWithout() throws {
        let (frame, objects) = try spreadFrame()
        let detector = try detector()
        let whole = try detector.detect(frame, options: DetectionOptions(threshold: 0.3))
        let tiled = try detector.detect(frame, options: DetectionOptions(threshold: 0.3, tiling: TilingOptions()))
        for (classIndex, region) in objects {
            XCTAssertFalse(finds(whole, classIndex, in: region), "class \(classIndex) at \(region) without tiles: \(whole)")
            XCTAssertTrue(finds(tiled, classIndex, in: region), "class \(classIndex) at \(region) with tiles: \(tiled)")
        }
        XCTAssertEqual(detector.tileSessions?.statistics.created, 2, "the tiles ran on two sessions at once (threads: 2)")
    }

    func testAnImageTheSizeOfOneTileGivesDetectsResult() throws {
        let detector = try detector()
        let dog = try photo("dog.jpg")
        let plain = DetectionOptions(threshold: 0.25)
        let expected = try detector.detect(dog, options: plain)
        XCTAssertFalse(expected.isEmpty)
        for tiling in [TilingOptions(tileSize: .pixels(width: 768, height: 576)),
                       TilingOptions(tileSize: .pixels(width: 768, height: 576), includesFullImage: false),
                       TilingOptions(tileSize: .pixels(width: 1000, height: 1000), merge: .nms, matchMetric: .intersectionOverUnion)] {
            var options = plain
            options.tiling = tiling
            XCTAssertEqual(try detector.detect(dog, options: options), expected)
            XCTAssertEqual(try detector.detect(try dog.pixelBuffer(format: .rgb), options: options), expected)
        }
        // Under 1.5 times the network's size, automatic tiling runs the image whole.
        let small = try dog.resized(width: 600, height: 450)
        XCTAssertEqual(try detector.detect(small, options: DetectionOptions(threshold: 0.25, tiling: TilingOptions())),
                       try detector.detect(small, options: plain))
    }

    func testAsyncTiledDetectionGivesTheSameResult() async throws {
        let detector = try detector()
        let (half, _) = try spreadFrame(width: 1920, height: 1080)
        let options = DetectionOptions(threshold: 0.3, tiling: TilingOptions())
        let synchronous = try Self.detect(half, with: detector, options: options)
        let concurrent = try await detector.detect(half, options: options)
        XCTAssertEqual(concurrent, synchronous)
        XCTAssertFalse(concurrent.isEmpty)
    }

    /// The dog of dog.jpg enlarged to 320x576 on a 1200x600 canvas at x 440...760, two 700x600
    /// tiles at 0 and 500: each sees a part of the dog, cut by its edge.
    func testBoxesOnATileEdgeMergeIntoOne() throws {
        let dog = try photo("dog.jpg").cropped(to: PixelRegion(x: 132, y: 222, width: 178, height: 320))
        let image = try canvas(width: 1200, height: 600, [(try dog.resized(width: 320, height: 576), 440, 12)])
        let detector = try detector()
        func dogs(_ tiling: TilingOptions) throws -> [Detection] {
            try detector.detect(image, options: DetectionOptions(threshold: 0.2, tiling: tiling)).filter { $0.classIndex == 16 }
        }
        var tiling = TilingOptions(tileSize: .pixels(width: 700, height: 600), includesFullImage: false)
        XCTAssertEqual(TileLayout.regions(imageWidth: 1200, imageHeight: 600, networkWidth: 416, networkHeight: 416, options: tiling).map(\.x),
                       [0, 500])
        tiling.matchThreshold = 2  // never combine: each tile's own dog
        let parts = try dogs(tiling).sorted { $0.rect.left < $1.rect.left }
        XCTAssertEqual(parts.count, 2, "\(parts)")
        guard parts.count == 2 else { return }
        XCTAssertGreaterThanOrEqual(parts[0].rect.right, 680, "the left tile's dog ends at its edge (700)")
        XCTAssertLessThanOrEqual(parts[1].rect.left, 520, "the right tile's dog starts at its edge (500)")
        tiling.matchThreshold = 0.5
        let merged = try dogs(tiling)
        XCTAssertEqual(merged.count, 1, "\(merged)")
        XCTAssertEqual(merged.first?.rect.left, parts[0].rect.left, "one box around both parts")
        XCTAssertEqual(merged.first?.rect.right, parts[1].rect.right)
        XCTAssertEqual(merged.first?.confidence, max(parts[0].confidence, parts[1].confidence))
        XCTAssertLessThanOrEqual(merged.first?.rect.left ?? 0, 460, "the whole dog, 440...760")
        XCTAssertGreaterThanOrEqual(merged.first?.rect.right ?? 0, 740)
        tiling.merge = .nms
        XCTAssertEqual(try dogs(tiling).map(\.rect), [(parts[0].confidence > parts[1].confidence ? parts[0] : parts[1]).rect])
    }

    func testResultsDoNotDependOnTheThreadCount() throws {
        let (half, _) = try spreadFrame(width: 1920, height: 1080)
        let options = DetectionOptions(threshold: 0.2, tiling: TilingOptions())
        let one = try detector(threads: 1), two = try detector(threads: 2)
        XCTAssertNil(one.tileSessions, "one thread: the tiles run one after another on the detector's session")
        XCTAssertEqual(try one.detect(half, options: options), try two.detect(half, options: options))
        XCTAssertEqual(two.tileSessions?.statistics.live, 2)
    }

    func testPipelineRunsEachFramesTiles() async throws {
        let half = try spreadFrame(width: 1920, height: 1080).image.pixelBuffer(format: .bgra)
        let frames = try (0..<2).map { i in
            Frame(pixels: try half.cropped(to: PixelRegion(x: 40 * i, y: 20 * i, width: 1800, height: 1000)), presentationTime: .seconds(Double(i) / 30))
        }
        let detector = try detector()
        let options = DetectionOptions(threshold: 0.3, tiling: TilingOptions())
        let results = try await DetectionPipeline(detector: detector, policy: .every, options: options).results(sending: frames)
        XCTAssertEqual(results.map(\.index), [0, 1])
        for (result, frame) in zip(results, frames) {
            let single = try Self.detect(frame.pixels, with: detector, options: options)
            XCTAssertEqual(result.detections, single, "frame \(result.index)")
            XCTAssertFalse(result.detections.isEmpty)
            XCTAssertLessThan(result.statistics.preprocessTime, .milliseconds(10), "the tiles are fitted on the forward thread")
        }
    }
}
