@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Detection from 8-bit frames, result shaping and the `async` API with its bounded session
/// pool, on the real YOLOv3-tiny weights and Darknet's sample photos.
final class PixelDetectionTests: XCTestCase {
    private func detector(_ policy: SessionPolicy = SessionPolicy()) throws -> Detector {
        try TinyYOLO.detector(sessionPolicy: policy)
    }

    private func photo(_ name: String) throws -> PlanarImage {
        try PlanarImage(contentsOf: TestPaths.sample("\(name).jpg"))
    }

    func testFramesGiveTheImagePathsDetections() throws {
        let detector = try detector()
        var found = 0
        for name in DarknetFidelityTests.samples {
            let image = try photo(name)
            let options = DetectionOptions(threshold: 0.25)
            let expected = try detector.detect(image, options: options)
            found += expected.count
            for format in name == "dog" ? [PixelFormat.bgra, .rgb, .argb, .bgr, .rgba] : [.bgra] {
                XCTAssertEqual(try detector.detect(try image.pixelBuffer(format: format), options: options), expected, "\(name) \(format)")
            }
        }
        XCTAssertGreaterThan(found, 20)
        let dog = try photo("dog"), stretched = DetectionOptions(threshold: 0.25, letterbox: false)
        XCTAssertEqual(try detector.detect(try dog.pixelBuffer(format: .bgra), options: stretched),
                       try detector.detect(dog, options: stretched), "stretched")
    }

    func testRegionDetectionReportsFramePixels() throws {
        let detector = try detector()
        let image = try photo("dog")
        let frame = try image.pixelBuffer(format: .bgra)
        let region = PixelRegion(x: 100, y: 150, width: 400, height: 400)
        let inRegion = try detector.detect(frame, region: region)
        let onCrop = try detector.detect(try frame.cropped(to: region))
        XCTAssertFalse(onCrop.isEmpty)
        XCTAssertEqual(inRegion.map(\.box), onCrop.map(\.box))
        for (a, b) in zip(inRegion, onCrop) {
            XCTAssertEqual(a.rect, PixelRect(left: b.rect.left + 100, top: b.rect.top + 150,
                                             right: b.rect.right + 100, bottom: b.rect.bottom + 150))
        }
    }

    func testShapingCapsFiltersAndOrders() throws {
        let detector = try detector()
        let image = try photo("dog")
        let all = try detector.detect(image, options: DetectionOptions(threshold: 0.25))
        XCTAssertGreaterThan(all.count, 3)
        let byConfidence = all.enumerated().sorted { $0.element.confidence != $1.element.confidence
            ? $0.element.confidence > $1.element.confidence : $0.offset < $1.offset }.map(\.element)
        XCTAssertEqual(try detector.detect(image, options: DetectionOptions(threshold: 0.25, order: .confidence)), byConfidence)
        let topTwo = try detector.detect(image, options: DetectionOptions(threshold: 0.25, maximumDetections: 2))
        XCTAssertEqual(topTwo, all.filter { byConfidence.prefix(2).contains($0) })
        let dogs = try detector.detect(image, options: DetectionOptions(threshold: 0.25, classes: [16]))
        XCTAssertEqual(dogs, all.filter { $0.classIndex == 16 })
        XCTAssertFalse(dogs.isEmpty)
        XCTAssertEqual(try detector.detect(image, options: DetectionOptions(threshold: 0.25, maximumDetections: 0)), [])
    }

    func testSixteenConcurrentAsyncDetectionsShareTwoSessions() async throws {
        let detector = try detector(SessionPolicy(maximumSessions: 2, idleTimeout: 60))
        let image = try photo("dog")
        let expected = try await detector.detect(image, options: DetectionOptions())
        let results = try await withThrowingTaskGroup(of: [Detection].self) { group in
            for _ in 0..<16 { group.addTask { try await detector.detect(image, options: DetectionOptions()) } }
            var all: [[Detection]] = []
            for try await result in group { all.append(result) }
            return all
        }
        XCTAssertEqual(results.count, 16)
        XCTAssertTrue(results.allSatisfy { $0 == expected })
        let statistics = detector.sessionStatistics
        XCTAssertEqual(statistics.created, 2, "a cap of 2 sessions")
        XCTAssertEqual(statistics.started, 17)
        XCTAssertEqual(statistics.live, 2)
    }

    func testCancelledTaskStartsNoForwardPass() async throws {
        let detector = try detector(SessionPolicy(maximumSessions: 1, idleTimeout: 60))
        let image = try photo("dog")
        let held = { detector.runner.pool.take() }()  // the only session: the task below must wait
        let task = Task { try await detector.detect(image) }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled detection returned")
        } catch is CancellationError {}
        detector.runner.pool.give(held)
        XCTAssertEqual(detector.sessionStatistics.started, 0)
        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await detector.detect(image)
        }
        await XCTAssertThrowsErrorAsync(try await alreadyCancelled.value)
        XCTAssertEqual(detector.sessionStatistics.started, 0)
        _ = try await detector.detect(image)
        XCTAssertEqual(detector.sessionStatistics.started, 1)
    }

    func testIdleSessionsAreFreed() throws {
        let detector = try detector(SessionPolicy(maximumSessions: 2, idleTimeout: 0.2))
        _ = try detector.detect(try photo("dog"))
        XCTAssertEqual(detector.sessionStatistics.live, 1)
        let deadline = Date().addingTimeInterval(5)
        while detector.sessionStatistics.live > 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(detector.sessionStatistics.live, 0, "the idle session was not freed within 5 s")
        _ = try detector.detect(try photo("dog"))
        XCTAssertEqual(detector.sessionStatistics.created, 2)
    }
}

func XCTAssertThrowsErrorAsync<T>(_ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line) async {
    do {
        _ = try await expression()
        XCTFail("no error thrown", file: file, line: line)
    } catch {}
}
