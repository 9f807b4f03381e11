@testable import Darknet
import XCTest

/// Deterministic tests of `ObjectTracker` on synthetic detections: matching order,
/// prediction, classes, ages and ID numbering. Box values are multiples of powers of two, so
/// the expected numbers are exact in float.
final class ObjectTrackerTests: XCTestCase {
    static let width = 640
    static let height = 480

    /// A detection of class `classIndex` with centre `(x, y)` and size `w x h` (relative).
    static func detection(_ classIndex: Int, x: Float, y: Float = 0.5, w: Float = 0.125, h: Float = 0.25,
                          confidence: Float = 0.9) -> Detection {
        let box = RelativeBox(x: x, y: y, width: w, height: h)
        return Detection(classIndex: classIndex, label: "class\(classIndex)", confidence: confidence, objectness: confidence,
                         box: box, rect: box.pixelRect(imageWidth: width, imageHeight: height))
    }

    static func update(_ tracker: inout ObjectTracker, _ detections: [Detection], frame: Int) -> [TrackedDetection] {
        tracker.update(detections, frameIndex: frame, imageWidth: width, imageHeight: height)
    }

    func testFirstFrameNumbersTracksFromOneInDetectionOrder() {
        var tracker = ObjectTracker()
        let detections = [Self.detection(3, x: 0.75), Self.detection(0, x: 0.25), Self.detection(3, x: 0.5)]
        let tracked = Self.update(&tracker, detections, frame: 7)
        XCTAssertEqual(tracked.map(\.trackID), [1, 2, 3])
        XCTAssertEqual(tracked.map(\.detection), detections, "one result per detection, in the order given")
        XCTAssertEqual(tracked.map(\.hits), [1, 1, 1])
        XCTAssertEqual(tracked.map(\.box), detections.map(\.box), "no smoothing by default")
        XCTAssertEqual(tracked.map(\.rect), detections.map(\.rect))
        XCTAssertEqual(tracker.liveTrackCount, 3)
        XCTAssertEqual(tracker.nextTrackID, 4)
        XCTAssertEqual(tracker.lastFrameIndex, 7)
    }

    func testMovedBoxesKeepTheirIDsWhateverTheDetectionOrder() {
        var tracker = ObjectTracker()
        _ = Self.update(&tracker, [Self.detection(0, x: 0.25), Self.detection(0, x: 0.5)], frame: 0)
        // Same class, listed in the other order and moved by a quarter of their width.
        let tracked = Self.update(&tracker, [Self.detection(0, x: 0.53125), Self.detection(0, x: 0.28125)], frame: 1)
        XCTAssertEqual(tracked.map(\.trackID), [2, 1])
        XCTAssertEqual(tracked.map(\.hits), [2, 2])
        XCTAssertEqual(tracker.nextTrackID, 3)
    }

    func testGreedyMatchingGivesTheTrackToTheHighestIoU() {
        var tracker = ObjectTracker()
        _ = Self.update(&tracker, [Self.detection(0, x: 0.5)], frame: 0)
        // Both overlap the track; the second overlaps it more (IoU 7/9 against 1/3) and wins
        // although the first comes first; the loser starts a new track.
        let far = Self.detection(0, x: 0.5625), near = Self.detection(0, x: 0.515625)
        XCTAssertEqual(far.box.intersectionOverUnion(Self.detection(0, x: 0.5).box), 1.0 / 3, accuracy: 1e-6)
        XCTAssertEqual(near.box.intersectionOverUnion(Self.detection(0, x: 0.5).box), 7.0 / 9, accuracy: 1e-6)
        let tracked = Self.update(&tracker, [far, near], frame: 1)
        XCTAssertEqual(tracked.map(\.trackID), [2, 1])
        XCTAssertEqual(tracked.map(\.hits), [1, 2])
    }

    func testIoUThresholdIsInclusiveAndZeroOverlapNeverMatches() {
        // Shifted by half the width: IoU exactly 1/3 (0.015625 / 0.046875 in float).
        let start = Self.detection(0, x: 0.5), shifted = Self.detection(0, x: 0.5625)
        let iou = start.box.intersectionOverUnion(shifted.box)
        var atThreshold = ObjectTracker(options: TrackerOptions(iouThreshold: iou))
        _ = Self.update(&atThreshold, [start], frame: 0)
        XCTAssertEqual(Self.update(&atThreshold, [shifted], frame: 1).map(\.trackID), [1])
        var above = ObjectTracker(options: TrackerOptions(iouThreshold: iou.nextUp))
        _ = Self.update(&above, [start], frame: 0)
        XCTAssertEqual(Self.update(&above, [shifted], frame: 1).map(\.trackID), [2])
        // Touching boxes (IoU 0) stay apart even with a zero threshold.
        var zero = ObjectTracker(options: TrackerOptions(iouThreshold: 0))
        _ = Self.update(&zero, [start], frame: 0)
        XCTAssertEqual(Self.update(&zero, [Self.detection(0, x: 0.625)], frame: 1).map(\.trackID), [2])
    }

    func testConstantVelocityPredictionBridgesAGapOfDroppedFrames() {
        // Moving 1/32 of the image per frame; after frame 2 the next processed frame is 6,
        // where the box has moved a whole width (an eighth) further: no overlap with the last
        // box, IoU 0.6 with the prediction (velocity 3/4 of the true one after two steps).
        var tracker = ObjectTracker()
        _ = Self.update(&tracker, [Self.detection(0, x: 0.25)], frame: 0)
        _ = Self.update(&tracker, [Self.detection(0, x: 0.28125)], frame: 1)
        _ = Self.update(&tracker, [Self.detection(0, x: 0.3125)], frame: 2)
        let later = Self.detection(0, x: 0.4375)
        XCTAssertEqual(later.box.intersectionOverUnion(Self.detection(0, x: 0.3125).box), 0)
        XCTAssertEqual(Self.update(&tracker, [later], frame: 6).map(\.trackID), [1])

        // Without a measured velocity (one detection only) the same jump starts a new track.
        var still = ObjectTracker()
        _ = Self.update(&still, [Self.detection(0, x: 0.3125)], frame: 2)
        XCTAssertEqual(Self.update(&still, [later], frame: 6).map(\.trackID), [2])
    }

    func testPredictionAndVelocityFormulasAreExact() {
        var track = Track(id: 1, detection: Self.detection(0, x: 0.25, w: 0.125), frame: 0, smoothing: .none)
        XCTAssertEqual(track.predicted(at: 5), RelativeBox(x: 0.25, y: 0.5, width: 0.125, height: 0.25), "no velocity yet")
        // Second hit two frames later: measured change 0.0625 per frame in x and width,
        // blended half and half with the initial zero velocity.
        _ = track.update(with: Self.detection(0, x: 0.375, w: 0.25), frame: 2, velocityWeight: 0.5)
        XCTAssertEqual(track.velocity, RelativeBox(x: 0.03125, y: 0, width: 0.03125, height: 0))
        XCTAssertEqual(track.predicted(at: 6), RelativeBox(x: 0.5, y: 0.5, width: 0.375, height: 0.25))
        // Third hit: measured x step 0.125, width step -0.125.
        _ = track.update(with: Self.detection(0, x: 0.5, w: 0.125), frame: 3, velocityWeight: 0.5)
        XCTAssertEqual(track.velocity, RelativeBox(x: 0.078125, y: 0, width: -0.046875, height: 0))
        XCTAssertEqual(track.predicted(at: 5), RelativeBox(x: 0.65625, y: 0.5, width: 0.03125, height: 0.25))
        XCTAssertEqual(track.predicted(at: 100).width, 0, "a shrinking prediction stops at zero size")
        XCTAssertEqual(track.hits, 3)
        XCTAssertEqual(track.lastFrame, 3)
        // Weight 1: the last measured step only.
        _ = track.update(with: Self.detection(0, x: 0.5625, w: 0.125), frame: 5, velocityWeight: 1)
        XCTAssertEqual(track.velocity, RelativeBox(x: 0.03125, y: 0, width: 0, height: 0))
    }

    func testVelocityWeightIsClampedAndNaNMeansTheLastStep() {
        XCTAssertEqual(TrackerOptions(velocityWeight: 2).effectiveVelocityWeight, 1)
        XCTAssertEqual(TrackerOptions(velocityWeight: -1).effectiveVelocityWeight, 0)
        XCTAssertEqual(TrackerOptions(velocityWeight: .nan).effectiveVelocityWeight, 1)
        XCTAssertEqual(TrackerOptions(velocityWeight: 0.25).effectiveVelocityWeight, 0.25)
        XCTAssertEqual(TrackerOptions(maxAge: -3).effectiveMaxAge, 0)
    }

    func testClassesAreMatchedSeparatelyUnlessPerClassIsOff() {
        // Darknet reports a box passing for two classes as two detections with the same box.
        let box0 = Self.detection(0, x: 0.5), box1 = Self.detection(1, x: 0.5)
        var tracker = ObjectTracker()
        XCTAssertEqual(Self.update(&tracker, [box0, box1], frame: 0).map(\.trackID), [1, 2])
        XCTAssertEqual(Self.update(&tracker, [box1, box0], frame: 1).map(\.trackID), [2, 1])
        // A class change on the same box is a new object when matching per class...
        XCTAssertEqual(Self.update(&tracker, [Self.detection(2, x: 0.5)], frame: 2).map(\.trackID), [3])

        // ...and the same one otherwise; the track then carries the new class.
        var anyClass = ObjectTracker(options: TrackerOptions(perClass: false))
        XCTAssertEqual(Self.update(&anyClass, [box0], frame: 0).map(\.trackID), [1])
        XCTAssertEqual(Self.update(&anyClass, [box1], frame: 1).map(\.trackID), [1])
        XCTAssertEqual(Self.update(&anyClass, [box1, box0], frame: 2).map(\.trackID), [1, 2],
                       "equal IoU: the earlier detection wins, the other starts a track")
    }

    func testLostTracksSurviveMaxAgeFrameIndicesAndNoMore() {
        let box = Self.detection(0, x: 0.5)
        // maxAge 2: missed at frames 1 and 2, matched again at 3.
        var tracker = ObjectTracker(options: TrackerOptions(maxAge: 2))
        _ = Self.update(&tracker, [box], frame: 0)
        _ = Self.update(&tracker, [], frame: 1)
        _ = Self.update(&tracker, [], frame: 2)
        XCTAssertEqual(tracker.liveTrackCount, 1)
        XCTAssertEqual(Self.update(&tracker, [box], frame: 3).map(\.trackID), [1])
        // Missed at 4, 5 and 6 (more than 2): dropped after frame 6's update.
        _ = Self.update(&tracker, [], frame: 4)
        _ = Self.update(&tracker, [], frame: 6)
        XCTAssertEqual(tracker.liveTrackCount, 0)
        XCTAssertEqual(Self.update(&tracker, [box], frame: 7).map(\.trackID), [2])

        // Frames the caller skipped count too: last seen at 0, next processed frame 4.
        var skipping = ObjectTracker(options: TrackerOptions(maxAge: 2))
        _ = Self.update(&skipping, [box], frame: 0)
        XCTAssertEqual(Self.update(&skipping, [box], frame: 3).map(\.trackID), [1], "frames 1, 2 missed: kept")
        XCTAssertEqual(Self.update(&skipping, [box], frame: 7).map(\.trackID), [2], "frames 4...6 missed: dropped")
        // maxAge 0: only the very next frame index continues a track.
        var strict = ObjectTracker(options: TrackerOptions(maxAge: 0))
        _ = Self.update(&strict, [box], frame: 0)
        XCTAssertEqual(Self.update(&strict, [box], frame: 1).map(\.trackID), [1])
        XCTAssertEqual(Self.update(&strict, [box], frame: 3).map(\.trackID), [2])
    }

    func testIDsAreNeverReusedAfterDropsResetsOrARestartedFrameCounter() {
        let box = Self.detection(0, x: 0.5)
        var tracker = ObjectTracker(options: TrackerOptions(maxAge: 0))
        XCTAssertEqual(Self.update(&tracker, [box, Self.detection(0, x: 0.125)], frame: 0).map(\.trackID), [1, 2])
        XCTAssertEqual(Self.update(&tracker, [], frame: 1).count, 0)
        XCTAssertEqual(tracker.liveTrackCount, 0)
        XCTAssertEqual(Self.update(&tracker, [box], frame: 2).map(\.trackID), [3])
        tracker.reset()
        XCTAssertNil(tracker.lastFrameIndex)
        XCTAssertEqual(tracker.liveTrackCount, 0)
        XCTAssertEqual(Self.update(&tracker, [box], frame: 3).map(\.trackID), [4])
        // A frame index that does not increase starts afresh, IDs still counting on.
        XCTAssertEqual(Self.update(&tracker, [box], frame: 3).map(\.trackID), [5])
        XCTAssertEqual(Self.update(&tracker, [box], frame: 0).map(\.trackID), [6])
        XCTAssertEqual(Self.update(&tracker, [box], frame: 1).map(\.trackID), [6])
        XCTAssertEqual(tracker.nextTrackID, 7)
    }

    func testExtremeFrameIndicesDropOldTracksInsteadOfOverflowing() {
        let box = Self.detection(0, x: 0.5)
        var tracker = ObjectTracker()
        XCTAssertEqual(Self.update(&tracker, [box], frame: Int.min).map(\.trackID), [1])
        XCTAssertEqual(Self.update(&tracker, [box], frame: Int.min + 1).map(\.trackID), [1])
        XCTAssertEqual(Self.update(&tracker, [box], frame: Int.max).map(\.trackID), [2])
        XCTAssertEqual(tracker.liveTrackCount, 1)
        XCTAssertEqual(ObjectTracker.age(at: Int.max, since: -1), Int.max)
        XCTAssertEqual(ObjectTracker.age(at: 10, since: 4), 6)
    }
}
