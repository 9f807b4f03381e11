import BatchDetection
import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// The batch pipeline with the real YOLOv3-tiny: the overlapped path and several images at once
/// give exactly the sequential path's (and `Detector.detect`'s) results, in input order,
/// failures included.
final class BatchDetectorTests: XCTestCase {
    func testOverlapGivesTheSequentialResultsInOrder() throws {
        let folder = try temporaryDirectory("batch")
        var paths: [String] = []
        for name in ["dog.jpg", "eagle.jpg", "broken.jpg", "kite.jpg"] {
            let url = folder.appendingPathComponent(name)
            if name == "broken.jpg" { try BatchFixtures.writeTruncatedJPEG(to: url) } else { try BatchFixtures.copySample(name, to: url) }
            paths.append(url.path)
        }
        let detector = try TinyYOLO.detector()
        let options = DetectionOptions(threshold: 0.25)
        let expected: [[Detection]?] = try paths.map { path in
            guard let image = try? PlanarImage(contentsOf: URL(fileURLWithPath: path)) else { return nil }
            return try detector.detect(image, options: options)
        }
        XCTAssertNil(expected[2], "the truncated JPEG must not decode")
        XCTAssertFalse(expected[0]?.isEmpty ?? true)
        for (lookAhead, jobs) in [(0, 1), (1, 1), (2, 1), (1, 2), (0, 3)] {
            let run = "lookAhead \(lookAhead), jobs \(jobs)"
            var items: [BatchItem] = []
            BatchDetector(detector: detector, options: options, lookAhead: lookAhead, jobs: jobs).run(paths) { items.append($0) }
            XCTAssertEqual(items.map(\.index), [0, 1, 2, 3], run)
            XCTAssertEqual(items.map(\.path), paths, run)
            for (item, want) in zip(items, expected) {
                switch item.result {
                case .success(let found):
                    XCTAssertEqual(found.detections, want, "\(item.path), \(run)")
                    XCTAssertEqual(found.image, try PlanarImage(contentsOf: URL(fileURLWithPath: item.path)))
                case .failure(let error):
                    XCTAssertNil(want, "\(item.path) failed: \(error)")
                    XCTAssertTrue(String(describing: error).contains(item.path), "the error names the file: \(error)")
                }
            }
        }
    }

    /// With `jobs` threads, at most `jobs` images are loaded beyond the one the caller holds,
    /// however long the caller takes: a folder of large photos is not decoded ahead at once.
    func testJobsLoadAtMostJobsImagesAhead() throws {
        struct Unreadable: Error {}
        // NSLock, which ThreadSanitizer sees: Mutex's futex on Linux is invisible to it, so two
        // loads at once were reported as a race.
        let loaded = Locked(0)
        let detector = try TinyYOLO.detector()
        let paths = (0..<8).map { "image\($0).jpg" }
        for jobs in [2, 3] {
            loaded.withLock { $0 = 0 }
            var aheadWhileHeld: [Int] = []
            BatchDetector(detector: detector, options: DetectionOptions(), jobs: jobs, load: { _ in
                loaded.withLock { $0 += 1 }
                throw Unreadable()
            }).run(paths) { item in
                if item.index == 0 {
                    usleep(300_000)  // the caller is slow with the first image
                    aheadWhileHeld.append(loaded.value)
                }
            }
            XCTAssertEqual(aheadWhileHeld.count, 1)
            XCTAssertLessThanOrEqual(aheadWhileHeld.first ?? .max, jobs + 1, "jobs \(jobs): the held image and \(jobs) more at most")
            XCTAssertEqual(loaded.value, 8)
        }
    }

    func testStoppingEarlyEndsTheBatch() throws {
        struct Stop: Error {}
        let folder = try temporaryDirectory("batch")
        var paths: [String] = []
        for i in 0..<4 {
            let url = folder.appendingPathComponent("\(i).jpg")
            try BatchFixtures.writeTruncatedJPEG(to: url)  // fast: every image fails to decode
            paths.append(url.path)
        }
        for jobs in [1, 2] {
            var seen: [Int] = []
            XCTAssertThrowsError(try BatchDetector(detector: try TinyYOLO.detector(), options: DetectionOptions(), lookAhead: 2,
                                                   jobs: jobs)
                .run(paths) { item in
                    seen.append(item.index)
                    if item.index == 1 { throw Stop() }
                }) { XCTAssertTrue($0 is Stop) }
            XCTAssertEqual(seen, [0, 1], "jobs \(jobs)")
        }
    }
}
