import Darknet
import DarknetModels
import Foundation
import TestSupport
import XCTest

/// Downloads from a real HTTP server on 127.0.0.1: whole, cut and resumed, wrong checksum,
/// stalled server, refused connection, HTTP errors, files that do not load, cancellation.
final class ModelDownloadTests: ModelTestCase {
    func testFullDownloadReportsProgressAndLoads() throws {
        let store = store()
        XCTAssertFalse(store.isDownloaded)
        XCTAssertNil(store.cachedModel)
        let recorder = ProgressRecorder()
        let files = try store.download(options: DownloadOptions(progress: { recorder.add($0) }))
        XCTAssertEqual(files.origin, store.cachedModel?.origin)
        XCTAssertTrue(store.isDownloaded)
        XCTAssertEqual(try Data(contentsOf: files.weights), Data(TinyModel.weights(seed: 1)))
        XCTAssertEqual(try Data(contentsOf: files.cfg), Data(TinyModel.cfgBytes))
        XCTAssertEqual(try String(contentsOf: files.names!, encoding: .utf8), TinyModel.names)
        let detector = try files.makeDetector()
        XCTAssertEqual(detector.labels, ["thing"])
        XCTAssertFalse(try detections(detector).isEmpty)

        let events = recorder.events
        let weightsSize = Int64(TinyModel.weights(seed: 1).count)
        let total = weightsSize + Int64(TinyModel.cfgBytes.count + TinyModel.namesBytes.count)
        let weightEvents = events.filter { $0.role == .weights }
        XCTAssertGreaterThan(weightEvents.count, 2)
        XCTAssertEqual(weightEvents.last?.fileBytes, weightsSize)
        XCTAssertEqual(weightEvents.last?.fileTotal, weightsSize)
        XCTAssertEqual(events.last?.overallBytes, total)
        XCTAssertEqual(events.last?.overallTotal, total)
        XCTAssertEqual(events.map(\.overallBytes), events.map(\.overallBytes).sorted(), "overall progress only grows")

        // Downloaded: a second call uses the cache, without the network.
        try server.reset()
        XCTAssertEqual(try store.download(), files)
        XCTAssertTrue(try server.requests().isEmpty)
    }

    func testCutTransferResumesWithRange() throws {
        let store = store()
        let cut = 1_000_000
        try server.fault("tiny.weights", ["cut_after": cut, "times": 1])
        let error = sourceError { _ = try store.download() }
        XCTAssertEqual(error?.url, server.url("tiny.weights"))
        if case .truncated(let expected, let received)? = error?.reason {
            XCTAssertEqual(expected, Int64(TinyModel.weights(seed: 1).count))
            XCTAssertEqual(received, Int64(cut))
        } else if case .network? = error?.reason {
        } else {
            XCTFail("expected a cut transfer, got \(String(describing: error))")
        }
        XCTAssertNil(store.cachedModel, "nothing is installed from a cut transfer")
        XCTAssertFalse(store.isDownloaded)

        let files = try store.download()
        XCTAssertEqual(try Data(contentsOf: files.weights), Data(TinyModel.weights(seed: 1)))
        let weightRequests = try server.requests(for: "tiny.weights")
        XCTAssertEqual(weightRequests.count, 2)
        XCTAssertEqual(weightRequests.last?.status, 206)
        XCTAssertEqual(weightRequests.last?.range, "bytes=\(cut)-")
        XCTAssertNoThrow(try files.makeDetector())
    }

    func testServerWithoutRangeSupportRestartsTheFile() throws {
        let store = store()
        try server.fault("tiny.weights", ["cut_after": 500_000, "times": 1])
        _ = sourceError { _ = try store.download() }
        try server.fault("tiny.weights", ["no_range": true])
        let files = try store.download()
        XCTAssertEqual(try server.requests(for: "tiny.weights").last?.status, 200)
        XCTAssertEqual(try Data(contentsOf: files.weights), Data(TinyModel.weights(seed: 1)))
    }

    func testWrongChecksumIsRefusedAndNothingKept() throws {
        let wrong = String(repeating: "0", count: 64)
        let store = store(hostedModel(weightsSHA256: wrong))
        let error = sourceError { _ = try store.download() }
        XCTAssertEqual(error?.url, server.url("tiny.weights"))
        XCTAssertEqual(error?.reason, .checksumMismatch(expected: wrong, actual: ModelChecksum.hex(of: TinyModel.weights(seed: 1))))
        XCTAssertNil(store.cachedModel)
        let partial = cacheDirectory.appendingPathComponent("tiny/partial")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: partial.path), [], "no bad bytes kept")
        XCTAssertTrue(String(describing: error!).contains("tiny.weights"))
    }

    /// A digest that is not 64 hex digits is refused when the `RemoteFile` is made, naming the
    /// argument: nothing is requested from the server (the issue-56 case downloaded 35 MB first).
    func testMalformedChecksumIsAnArgumentErrorWhenGiven() throws {
        let url = server.url("tiny.weights")
        for bad in ["xyz", String(repeating: "0", count: 63), String(repeating: "0", count: 65),
                    String(repeating: "0", count: 63) + "g", " " + String(repeating: "a", count: 63)] {
            XCTAssertThrowsError(try RemoteFile(url, sha256: bad), bad) { error in
                XCTAssertEqual(error as? ArgumentError,
                               ArgumentError(argument: "sha256", value: "'\(bad)'",
                                             expected: "64 hex digits (a SHA-256 as sha256sum prints it)"))
            }
        }
        // Either case is accepted and kept in lower case; nil accepts any content.
        let digest = ModelChecksum.hex(of: TinyModel.weights(seed: 1))
        XCTAssertEqual(try RemoteFile(url, sha256: digest.uppercased()).sha256, digest)
        XCTAssertNil(try RemoteFile(url, sha256: nil).sha256)
        XCTAssertEqual(try RemoteFile(url, sha256: nil), RemoteFile(url))
    }

    func testStalledServerTimesOut() throws {
        try server.fault("tiny.weights", ["stall_after": 100_000, "stall_seconds": 60])
        let start = Date()
        let error = sourceError { _ = try store().download(options: DownloadOptions(idleTimeout: 1)) }
        XCTAssertEqual(error?.url, server.url("tiny.weights"))
        XCTAssertEqual(error?.reason, .timedOut(seconds: 1))
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "a time-out of 1 s must not take long (generous bound)")
        XCTAssertNil(store().cachedModel)
    }

    func testWholeTransferLimit() throws {
        try server.fault("tiny.weights", ["rate": 200_000])
        let error = sourceError { _ = try store().download(options: DownloadOptions(transferTimeout: 1)) }
        XCTAssertEqual(error?.url, server.url("tiny.weights"))
        XCTAssertEqual(error?.reason, .transferTooLong(seconds: 1))
    }

    /// A part file that already holds the whole file (a kill between the last byte and the move)
    /// gets 416 to its Range request: the download starts over instead of failing.
    func testCompletePartFileStartsOver() throws {
        let partial = cacheDirectory.appendingPathComponent("tiny/partial")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        let weights = TinyModel.weights(seed: 1)
        try Data(weights).write(to: partial.appendingPathComponent("weights.part"))
        let etag = try XCTUnwrap(server.etag("tiny.weights"))
        let state = #"{"url": "\#(server.url("tiny.weights").absoluteString)", "validators": {"etag": \#(jsonString(etag))}}"#
        try Data(state.utf8).write(to: partial.appendingPathComponent("weights.json"))
        let files = try store().download()
        XCTAssertEqual(try server.requests(for: "tiny.weights").map(\.status), [416, 200])
        XCTAssertEqual(try Data(contentsOf: files.weights), Data(weights))
    }

    func testRefusedConnectionNamesTheURLAndFallsBackToBundled() throws {
        let bundledFolder = cacheDirectory.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundledFolder, withIntermediateDirectories: true)
        let bundled = BundledModel(cfg: bundledFolder.appendingPathComponent("tiny.cfg"),
                                   weights: bundledFolder.appendingPathComponent("tiny.weights"),
                                   names: bundledFolder.appendingPathComponent("tiny.names"))
        try Data(TinyModel.cfgBytes).write(to: bundled.cfg)
        try Data(TinyModel.weights(seed: 2)).write(to: bundled.weights)
        try Data(TinyModel.namesBytes).write(to: bundled.names!)
        let model = hostedModel(bundled: bundled)
        server.stop()  // nothing listens on the port now
        let store = store(model)
        let error = sourceError { _ = try store.download(options: DownloadOptions(idleTimeout: 5)) }
        XCTAssertEqual(error?.url, model.cfg.url)
        guard case .network? = error?.reason else { return XCTFail("expected a network error, got \(String(describing: error))") }
        let fallback = try store.availableModel()
        XCTAssertEqual(fallback.origin, .bundled)
        XCTAssertNoThrow(try fallback.makeDetector())
    }

    func testNoModelAtAllIsATypedError() throws {
        server.stop()
        let error = sourceError { _ = try store().availableModel() }
        XCTAssertEqual(error?.reason, .noModelAvailable)
    }

    func testHTTPErrorStatus() throws {
        try server.fault("tiny.weights", ["status": 503, "times": 1])
        let error = sourceError { _ = try store().download() }
        XCTAssertEqual(error?.url, server.url("tiny.weights"))
        XCTAssertEqual(error?.reason, .httpStatus(503))
        let missing = HostedModel(name: "missing", cfg: RemoteFile(server.url("nope.cfg")), weights: RemoteFile(server.url("tiny.weights")))
        XCTAssertEqual(sourceError { _ = try self.store(missing).download() }?.reason, .httpStatus(404))
    }

    func testFilesThatDoNotLoadAreNotInstalled() throws {
        // Weights one layer short: the server sends it whole, the load refuses it.
        let short = Array(TinyModel.weights(seed: 1).dropLast(4 * 6 * 256))
        try server.put("short.weights", short)
        var model = hostedModel(weightsSHA256: nil)
        model.weights = RemoteFile(server.url("short.weights"))
        let error = sourceError { _ = try store(model).download() }
        XCTAssertEqual(error?.url, server.url("short.weights"))
        guard case .doesNotLoad(let message)? = error?.reason else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(message.contains("layer"), message)
        XCTAssertNil(store(model).cachedModel)

        // A cfg with an error, served over a working cached model: the cached model stays.
        let good = try store().download()
        try server.put("tiny.cfg", Array("[net]\nwidth=32\nheight=32\nchannels=3\n[convolutional]\nfilters=oops\n".utf8))
        var broken = hostedModel()
        broken.cfg = RemoteFile(server.url("tiny.cfg"))
        let cfgError = sourceError { _ = try store(broken).update() }
        XCTAssertEqual(cfgError?.url, server.url("tiny.cfg"))
        guard case .doesNotLoad? = cfgError?.reason else { return XCTFail("got \(String(describing: cfgError))") }
        XCTAssertEqual(store().cachedModel, good)
        XCTAssertNoThrow(try good.makeDetector())
    }

    func testCancellationStopsTheDownload() throws {
        try server.fault("tiny.weights", ["rate": 200_000])
        let cancellation = DownloadCancellation()
        let options = DownloadOptions(progress: { if $0.role == .weights, $0.fileBytes > 100_000 { cancellation.cancel() } },
                                      cancellation: cancellation)
        let error = sourceError { _ = try store().download(options: options) }
        XCTAssertEqual(error?.reason, .cancelled)
        XCTAssertNil(store().cachedModel)
    }

    func testAsyncDownloadIsCancelledWithItsTask() async throws {
        try server.fault("tiny.weights", ["rate": 100_000])
        let store = store()
        let task = Task { try await store.download(options: DownloadOptions()) }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the download should have been cancelled")
        } catch let error as ModelSourceError {
            XCTAssertEqual(error.reason, .cancelled)
        }
        XCTAssertNil(store.cachedModel)
    }

    func testFileURLs() throws {
        let folder = cacheDirectory.appendingPathComponent("source")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(TinyModel.cfgBytes).write(to: folder.appendingPathComponent("tiny.cfg"))
        try Data(TinyModel.weights(seed: 3)).write(to: folder.appendingPathComponent("tiny.weights"))
        let model = HostedModel(name: "local", cfg: RemoteFile(folder.appendingPathComponent("tiny.cfg")),
                                weights: RemoteFile(folder.appendingPathComponent("tiny.weights")))
        let store = ModelStore(model: model, cacheDirectory: cacheDirectory)
        let files = try store.download()
        XCTAssertNil(files.names)
        XCTAssertEqual(try Data(contentsOf: files.weights), Data(TinyModel.weights(seed: 3)))
        guard case .upToDate = try store.update() else { return XCTFail("an unchanged file is no update") }
        try Data(TinyModel.weights(seed: 4)).write(to: folder.appendingPathComponent("tiny.weights"))
        guard case .updated(let newer) = try store.update() else { return XCTFail("a changed file is an update") }
        XCTAssertEqual(try Data(contentsOf: newer.weights), Data(TinyModel.weights(seed: 4)))
    }

    /// `ModelSourceError` reads as its message, `localizedDescription` included.
    func testModelSourceErrorReadsAsItsMessage() throws {
        let url = try XCTUnwrap(URL(string: "https://example.org/m.weights"))
        assertMessages([(ModelSourceError(url: url, reason: .httpStatus(404)),
                         "https://example.org/m.weights: HTTP status 404, expected 200, 206 or 304")])
    }
}

/// Collects progress events from the transfer thread.
final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [DownloadProgress] = []
    func add(_ event: DownloadProgress) { lock.withLock { recorded.append(event) } }
    var events: [DownloadProgress] { lock.withLock { recorded } }

}
