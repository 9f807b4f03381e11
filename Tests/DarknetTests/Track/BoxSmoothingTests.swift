@testable import Darknet
import XCTest

/// The smoothing formulas of `BoxSmoothing`, exactly: each edge (left, top, right, bottom, in
/// relative coordinates) averaged on its own over the track's detections.
final class BoxSmoothingTests: XCTestCase {
    /// Three detections of one object: a step right, then a wider box.
    /// Edges (left, right): (0.1875, 0.3125), (0.25, 0.375), (0.375, 0.625); top 0.375 and
    /// bottom 0.625 throughout.
    static let sequence = [ObjectTrackerTests.detection(0, x: 0.25), ObjectTrackerTests.detection(0, x: 0.3125),
                           ObjectTrackerTests.detection(0, x: 0.5, w: 0.25)]

    func run(_ smoothing: BoxSmoothing) -> [TrackedDetection] {
        // A low threshold: the third box overlaps the prediction by IoU 1/11 only.
        var tracker = ObjectTracker(options: TrackerOptions(iouThreshold: 0.05, smoothing: smoothing))
        let results = Self.sequence.enumerated().flatMap { frame, detection in
            ObjectTrackerTests.update(&tracker, [detection], frame: frame)
        }
        XCTAssertEqual(results.map(\.trackID), [1, 1, 1], "one track")
        XCTAssertEqual(results.map(\.detection), Self.sequence, "the detections are reported unchanged")
        for result in results {
            XCTAssertEqual(result.rect, result.box.pixelRect(imageWidth: ObjectTrackerTests.width,
                                                             imageHeight: ObjectTrackerTests.height))
        }
        return results
    }

    func testNoneReportsTheDetectionsOwnBoxAndRect() {
        let results = run(.none)
        XCTAssertEqual(results.map(\.box), Self.sequence.map(\.box))
        XCTAssertEqual(results.map(\.rect), Self.sequence.map(\.rect))
    }

    func testMovingAverageMeansEachEdgeOverTheLastFrames() {
        let results = run(.movingAverage(frames: 2))
        XCTAssertEqual(results.map(\.box), [
            RelativeBox(x: 0.25, y: 0.5, width: 0.125, height: 0.25),          // itself
            RelativeBox(x: 0.28125, y: 0.5, width: 0.125, height: 0.25),       // left (0.1875 + 0.25) / 2, right (0.3125 + 0.375) / 2
            RelativeBox(x: 0.40625, y: 0.5, width: 0.1875, height: 0.25),      // left 0.3125, right 0.5: the first box left the window
        ])
        let three = run(.movingAverage(frames: 30))
        // All three: left (0.1875 + 0.25 + 0.375) / 3 = 0.2708..., right (0.3125 + 0.375 + 0.625) / 3 = 0.4375.
        let left = (0.1875 + 0.25 + 0.375) / 3.0, right = (0.3125 + 0.375 + 0.625) / 3.0
        XCTAssertEqual(three[2].box, RelativeBox(x: Float((left + right) / 2), y: 0.5, width: Float(right - left), height: 0.25))
        XCTAssertEqual(three[1].box, results[1].box, "fewer detections than frames: the mean of those there are")
    }

    func testMovingAverageOfOneOrLessIsNoSmoothing() {
        XCTAssertEqual(run(.movingAverage(frames: 1)).map(\.box), Self.sequence.map(\.box))
        XCTAssertEqual(run(.movingAverage(frames: 0)).map(\.box), Self.sequence.map(\.box))
    }

    func testExponentialWeighsTheNewestBoxByTheFactor() {
        let results = run(.exponential(factor: 0.25))
        XCTAssertEqual(results.map(\.box), [
            RelativeBox(x: 0.25, y: 0.5, width: 0.125, height: 0.25),
            // left 0.25 * 0.25 + 0.75 * 0.1875 = 0.203125, right 0.25 * 0.375 + 0.75 * 0.3125 = 0.328125
            RelativeBox(x: 0.265625, y: 0.5, width: 0.125, height: 0.25),
            // left 0.25 * 0.375 + 0.75 * 0.203125 = 0.24609375, right 0.25 * 0.625 + 0.75 * 0.328125 = 0.40234375
            RelativeBox(x: 0.32421875, y: 0.5, width: 0.15625, height: 0.25),
        ])
        XCTAssertEqual(run(.exponential(factor: 1)).map(\.box), Self.sequence.map(\.box))
        XCTAssertEqual(run(.exponential(factor: .nan)).map(\.box), Self.sequence.map(\.box), "NaN counts as 1")
        XCTAssertEqual(run(.exponential(factor: -1)).map(\.box), Array(repeating: Self.sequence[0].box, count: 3),
                       "clamped to 0: the first box is kept")
    }

    func testSmoothingStateBelongsToEachTrack() {
        var tracker = ObjectTracker(options: TrackerOptions(smoothing: .movingAverage(frames: 4)))
        let a = ObjectTrackerTests.detection(0, x: 0.25), b = ObjectTrackerTests.detection(1, x: 0.25, y: 0.75)
        _ = ObjectTrackerTests.update(&tracker, [a, b], frame: 0)
        let moved = ObjectTrackerTests.detection(0, x: 0.28125)
        let results = ObjectTrackerTests.update(&tracker, [moved, b], frame: 1)
        XCTAssertEqual(results[0].box, RelativeBox(x: 0.265625, y: 0.5, width: 0.125, height: 0.25))
        XCTAssertEqual(results[1].box, b.box, "an unmoved track averages only its own boxes")
    }
}
