import Darknet
import DarknetModels
import Foundation
import XCTest

/// `ModelStore`'s async calls never hold a thread of Swift's cooperative pool while they wait on
/// the network, throw the typed `ModelSourceError`, and report readably.
final class AsyncModelStoreTests: ModelTestCase {
    /// More downloads at once than the cooperative pool has threads, each held by a server that
    /// stalls: all of them are in flight together and a task on the pool still runs at once;
    /// cancelling their tasks ends each with `.cancelled`. (Run on a blocked pool thread, as
    /// before, only as many as the pool's threads would start, and the probe would wait.)
    func testConcurrentDownloadsLeaveTheCooperativePoolFree() throws {
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        try server.fault("tiny.weights", ["stall_after": 1000, "stall_seconds": 60])
        let inFlight = Outcomes()
        let ended = (0..<count).map { expectation(description: "download \($0) ends") }
        let outcomes = Outcomes()
        let tasks = (0..<count).map { index in
            let store = ModelStore(model: HostedModel(name: "tiny-\(index)", cfg: RemoteFile(server.url("tiny.cfg")),
                                                      weights: RemoteFile(server.url("tiny.weights"))),
                                   cacheDirectory: cacheDirectory)
            let options = DownloadOptions(progress: { progress in
                if progress.role == .weights, progress.fileBytes > 0 { inFlight.record("\(index)") }
            })
            return Task {
                do throws(ModelSourceError) {
                    _ = try await store.download(options: options)
                    outcomes.record("downloaded")
                } catch {
                    outcomes.record("\(error.reason)")
                }
                ended[index].fulfill()
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while inFlight.count < count, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(inFlight.count, count, "every download is in flight at once")
        let probe = expectation(description: "a task on the cooperative pool runs")
        Task { probe.fulfill() }
        wait(for: [probe], timeout: 5)
        for task in tasks { task.cancel() }
        wait(for: ended, timeout: 30)
        XCTAssertEqual(outcomes.values, Array(repeating: "cancelled", count: count))
    }

    func testUpdatesAndFilesPrintReadably() async throws {
        let store = store()
        let last = Outcomes()
        let files = try await store.download(options: DownloadOptions(progress: { last.record("\($0)") }))
        guard case .cache(let version) = files.origin else { return XCTFail("\(files.origin)") }
        XCTAssertEqual("\(files)", "\(files.weights.path) (cache version \(version))")
        let update = try await store.update()
        XCTAssertEqual("\(update)", "up to date: \(files)")
        XCTAssertEqual("\(ModelFiles.Origin.bundled)", "bundled")
        let weights = TinyModel.weights(seed: 1).count, all = weights + TinyModel.cfgBytes.count + TinyModel.namesBytes.count
        XCTAssertEqual(last.values.last, "weights: \(weights) of \(weights) bytes (overall \(all) of \(all))")
    }
}

/// Strings recorded from several threads.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var distinct: Set<String> = []

    func record(_ value: String) { lock.withLock { recorded.append(value); distinct.insert(value) } }
    var values: [String] { lock.withLock { recorded } }
    var count: Int { lock.withLock { distinct.count } }
}
