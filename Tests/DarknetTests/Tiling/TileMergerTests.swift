@testable import Darknet
import XCTest

/// How detections of different tiles become one (`TileMerge`), on boxes made by hand.
final class TileMergerTests: XCTestCase {
    private let wholeImage = PixelRegion(x: 0, y: 0, width: 1000, height: 500)
    private let left = PixelRegion(x: 0, y: 0, width: 600, height: 500)
    private let right = PixelRegion(x: 400, y: 0, width: 600, height: 500)

    /// A detection whose box spans `x0..<x1`, `y0..<y1` in the pixels of `region`.
    private func found(_ classIndex: Int, _ confidence: Float, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float,
                       in region: PixelRegion) -> Detection {
        let w = Float(region.width), h = Float(region.height)
        let box = RelativeBox(x: (x0 + x1) / 2 / w, y: (y0 + y1) / 2 / h, width: (x1 - x0) / w, height: (y1 - y0) / h)
        return Detection(classIndex: classIndex, label: "\(classIndex)", confidence: confidence, objectness: confidence, box: box,
                         rect: box.pixelRect(imageWidth: region.width, imageHeight: region.height))
    }

    private func merge(_ passes: [(PixelRegion, [Detection])], _ options: TilingOptions = TilingOptions()) -> [Detection] {
        TileMerger(imageWidth: 1000, imageHeight: 500, options: options).merge(passes.map { (region: $0.0, detections: $0.1) })
    }

    func testAnObjectCutByATileEdgeBecomesOneBoxAroundBothParts() {
        // The object spans 300...800: the left tile sees 300...600, the right one 400...800.
        let parts = [(left, [found(2, 0.6, 300, 100, 600, 300, in: left)]), (right, [found(2, 0.8, 0, 100, 400, 300, in: right)])]
        let merged = merge(parts)
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].confidence, 0.8, "the most confident part's")
        XCTAssertEqual(merged[0].objectness, 0.8)
        XCTAssertEqual(merged[0].rect, PixelRect(left: 300, top: 100, right: 800, bottom: 300), "Darknet's edges of 300...800")
        XCTAssertEqual(merged[0].box.x * 1000, 550, accuracy: 1e-3)
        let suppressed = merge(parts, TilingOptions(merge: .nms))
        XCTAssertEqual(suppressed.count, 1)
        XCTAssertEqual(suppressed[0].rect, PixelRect(left: 400, top: 100, right: 800, bottom: 300), "NMS keeps the best part as it is")
        let iou = merge(parts, TilingOptions(matchMetric: .intersectionOverUnion))
        XCTAssertEqual(iou.count, 2, "the parts' IoU is 200 / 500, their intersection over the smaller 200 / 300")
    }

    func testOnlyDetectionsOfDifferentPassesAndOfOneClassCombine() {
        let samePass = merge([(left, [found(1, 0.9, 100, 100, 300, 300, in: left), found(1, 0.5, 120, 120, 280, 280, in: left)])])
        XCTAssertEqual(samePass.count, 2, "within a pass Darknet's NMS already decided")
        let otherClass = [(left, [found(1, 0.9, 420, 100, 590, 300, in: left)]), (right, [found(3, 0.7, 20, 100, 190, 300, in: right)])]
        XCTAssertEqual(merge(otherClass).count, 2)
        let agnostic = merge(otherClass, TilingOptions(classAgnostic: true))
        XCTAssertEqual(agnostic.map(\.classIndex), [1], "the most confident box's class")
    }

    func testWholeImagePassFirstAndItsUnmergedDetectionsUnchanged() {
        let whole = found(0, 0.4, 10, 10, 90, 90, in: wholeImage)
        let big = found(5, 0.95, 100, 50, 900, 450, in: wholeImage)
        let tilePart = found(5, 0.5, 150, 60, 590, 440, in: left)
        let merged = merge([(wholeImage, [whole, big]), (left, [tilePart])])
        XCTAssertEqual(merged.count, 2)
        XCTAssertEqual(merged[0], whole, "reported exactly as the whole-image pass found it")
        XCTAssertEqual(merged[1].rect, big.rect, "the tile's part lies inside the large box: merged into it")
        XCTAssertNil(merged[1].uncertainty)
    }

    func testThresholdIsInclusiveAndOrderIsByPass() {
        // Intersection over the smaller box exactly 0.5 (binary fractions throughout): 256...384 in
        // the left tile and 320...448 in the right one.
        let left = PixelRegion(x: 0, y: 0, width: 512, height: 256), right = PixelRegion(x: 256, y: 0, width: 512, height: 256)
        let a = found(0, 0.9, 256, 0, 384, 64, in: left), b = found(0, 0.3, 64, 0, 192, 64, in: right)
        XCTAssertEqual(merge([(left, [a]), (right, [b])]).count, 1)
        XCTAssertEqual(merge([(left, [a]), (right, [b])], TilingOptions(matchThreshold: 0.5001)).count, 2)
        let c = found(0, 0.2, 10, 400, 50, 450, in: left), d = found(0, 0.99, 500, 400, 550, 450, in: right)
        XCTAssertEqual(merge([(left, [c]), (right, [d])]).map(\.confidence), [0.2, 0.99], "pass order, not confidence order")
    }
}
