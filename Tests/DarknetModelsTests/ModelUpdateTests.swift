import Darknet
import DarknetModels
import Foundation
import XCTest

/// Update checks with conditional requests: nothing changed, one file changed, the check failing.
final class ModelUpdateTests: ModelTestCase {
    func testUnchangedServerAnswers304AndKeepsTheVersion() throws {
        let store = store(hostedModel(weightsSHA256: nil))
        let files = try store.download()
        try server.reset()
        XCTAssertEqual(try store.update(), .upToDate(files))
        let log = try server.requests()
        XCTAssertEqual(log.count, 3)
        XCTAssertEqual(log.map { $0["status"] as? Int }, [304, 304, 304])
        XCTAssertTrue(log.allSatisfy { $0["if_none_match"] is String }, "conditional requests carry the ETag: \(log)")
    }

    func testChangedWeightsAreDownloadedAloneWhileTheOldDetectorKeepsWorking() throws {
        let store = store(hostedModel(weightsSHA256: nil))
        let old = try store.download()
        let oldDetector = try old.makeDetector()
        let before = try detections(oldDetector)

        try server.put("tiny.weights", TinyModel.weights(seed: 7))  // new bytes, new ETag
        try server.reset()
        let update = try store.update()
        guard case .updated(let new) = update else { return XCTFail("expected an update, got \(update)") }
        XCTAssertNotEqual(new.origin, old.origin)
        XCTAssertEqual(store.cachedModel, new, "the latest model is answered from the cache")
        XCTAssertEqual(try Data(contentsOf: new.weights), Data(TinyModel.weights(seed: 7)))
        XCTAssertEqual(try server.requests(for: "tiny.cfg").map(\.status), [304])
        XCTAssertEqual(try server.requests(for: "tiny.names").map(\.status), [304])
        XCTAssertEqual(try server.requests(for: "tiny.weights").map(\.status), [200])

        // The detector built from the old files still runs, with its old results.
        XCTAssertEqual(try detections(oldDetector), before)
        XCTAssertNotEqual(try detections(try new.makeDetector()), before)
        // The previous version is kept on disk for processes that read `current` just before the switch.
        XCTAssertEqual(try Data(contentsOf: old.weights), Data(TinyModel.weights(seed: 1)))
    }

    func testFailedCheckLeavesTheCachedModelInPlace() throws {
        let store = store(hostedModel(weightsSHA256: nil))
        let files = try store.download()
        try server.put("tiny.weights", TinyModel.weights(seed: 8))
        try server.fault("tiny.weights", ["cut_after": 300_000, "times": 1])
        XCTAssertEqual(sourceError { _ = try store.update() }?.url, server.url("tiny.weights"))
        XCTAssertEqual(store.cachedModel, files)
        XCTAssertNoThrow(try store.availableModel().makeDetector())
        // The next check resumes the new weights and installs them.
        try server.reset()
        guard case .updated(let new) = try store.update() else { return XCTFail("expected the update to complete") }
        XCTAssertEqual(try server.requests(for: "tiny.weights").last?.status, 206)
        XCTAssertEqual(try Data(contentsOf: new.weights), Data(TinyModel.weights(seed: 8)))
    }

    func testFileWithoutValidatorsIsFetchedWholeAndSameBytesAreNoUpdate() throws {
        // No ETag or Last-Modified on the weights: no conditional request is possible, so the check
        // fetches them whole and compares checksums.
        try server.fault("tiny.weights", ["no_validators": true])
        let store = store()
        let files = try store.download()
        try server.reset()
        try server.fault("tiny.weights", ["no_validators": true])
        XCTAssertEqual(try store.update(), .upToDate(files), "same bytes are no update")
        XCTAssertEqual(try server.requests(for: "tiny.weights").map(\.status), [200])
    }

    func testOldVersionsAreCollected() throws {
        let store = store(hostedModel(weightsSHA256: nil))
        _ = try store.download()
        for seed: UInt64 in 10...12 {
            try server.put("tiny.weights", TinyModel.weights(seed: seed))
            guard case .updated = try store.update() else { return XCTFail("seed \(seed) should update") }
        }
        let versions = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.appendingPathComponent("tiny/versions").path)
        XCTAssertEqual(versions.count, 2, "the current version and the one before: \(versions)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.appendingPathComponent("tiny").path)
        XCTAssertEqual(Set(entries), ["current", "lock", "partial", "versions"])
    }
}
