@testable import Darknet
import DarknetModels
import Foundation
import TestSupport
import XCTest

/// `swift-darknet detect` with http:// URLs, as a child process: first download, cached use
/// without the network, `--update` failures, and SIGKILL at random points of a download.
final class ModelCLITests: ModelTestCase {
    var tool: URL { get throws { try SwiftDarknetTool.require() } }

    var image: String { get throws { try TestPaths.require(TestPaths.sample("dog.jpg")).path } }

    func detect(_ extra: [String] = [], timeout: Double = 120) throws -> ChildProcess.Result {
        try ChildProcess.run(try tool, ["detect", "--cfg", server.url("tiny.cfg").absoluteString,
                                  "--weights", server.url("tiny.weights").absoluteString,
                                  "--names", server.url("tiny.names").absoluteString,
                                  "--cache", cacheDirectory.path, "--thresh", "0.0001"] + extra + [try image],
                       timeout: timeout)
    }

    /// The store the command uses for these URLs (same cache folder name).
    var commandStore: ModelStore {
        let cfg = server.url("tiny.cfg"), weights = server.url("tiny.weights"), names = server.url("tiny.names")
        let model = HostedModel(name: HostedModel.defaultName(cfg: cfg, weights: weights, names: names),
                                cfg: RemoteFile(cfg), weights: RemoteFile(weights), names: RemoteFile(names))
        return ModelStore(model: model, cacheDirectory: cacheDirectory)
    }

    func testFirstDownloadThenCachedWithoutTheNetwork() throws {
        let first = try detect()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("Predicted in"), first.stdout)
        XCTAssertTrue(commandStore.isDownloaded)
        let port = server.port
        server.stop()
        let second = try detect()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout.split(separator: "\n").dropFirst(), first.stdout.split(separator: "\n").dropFirst(),
                       "same detections from the cache (server on port \(port) stopped)")
        XCTAssertFalse(second.stderr.contains("127.0.0.1"), second.stderr)
    }

    func testFailedUpdateCheckIsReportedAndTheCachedModelUsed() throws {
        XCTAssertEqual(try detect().status, 0)
        try server.put("tiny.weights", TinyModel.weights(seed: 5))
        try server.fault("tiny.weights", ["cut_after": 200_000])
        let cut = try detect(["--update"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertTrue(cut.stderr.contains(server.url("tiny.weights").absoluteString), cut.stderr)
        XCTAssertTrue(cut.stderr.contains("using the cached model"), cut.stderr)
        XCTAssertTrue(cut.stdout.contains("Predicted in"))

        let url = server.url("tiny.cfg").absoluteString
        server.stop()
        let down = try detect(["--update"])
        XCTAssertEqual(down.status, 0, down.stderr)
        XCTAssertTrue(down.stderr.contains(url), down.stderr)
        XCTAssertEqual(try Data(contentsOf: XCTUnwrap(commandStore.cachedModel).weights), Data(TinyModel.weights(seed: 1)))
    }

    func testSuccessfulUpdateInstallsTheNewWeights() throws {
        XCTAssertEqual(try detect().status, 0)
        try server.put("tiny.weights", TinyModel.weights(seed: 6))
        let updated = try detect(["--update"])
        XCTAssertEqual(updated.status, 0, updated.stderr)
        XCTAssertEqual(try Data(contentsOf: XCTUnwrap(commandStore.cachedModel).weights), Data(TinyModel.weights(seed: 6)))
    }

    func testFailedFirstDownloadExitsOne() throws {
        let url = server.url("tiny.cfg").absoluteString
        server.stop()
        let result = try detect()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(url), result.stderr)
        XCTAssertNil(commandStore.cachedModel)
    }

    func testStalledServerTimesOutWithTimeoutOption() throws {
        try server.fault("tiny.weights", ["stall_after": 1000, "stall_seconds": 60])
        let start = Date()
        let result = try detect(["--timeout", "1"], timeout: 60)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("\(server.url("tiny.weights").absoluteString): timed out"), result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "generous bound for a 1 s time-out")
    }

    func testCacheOptionsNeedURLs() throws {
        let result = try ChildProcess.run(try tool, ["detect", "--cfg", "a.cfg", "--weights", "a.weights", "--update", try image],
                                          timeout: 120)
        XCTAssertEqual(result.status, 2, "a usage mistake")
        XCTAssertTrue(result.stderr.contains("apply to http(s):// URLs"), result.stderr)
    }

    /// SIGKILL at random moments of a first download (six times, from an empty cache), then of an
    /// update (six times, the server switching between two weights files): afterwards the cache
    /// holds a model that loads, with exactly one of the served weights, or, before the first
    /// install, none.
    func testKillAtRandomPointsLeavesALoadableModelOrNone() throws {
        let seed = UInt64(Date().timeIntervalSince1970)
        var generator = SplitMix64(seed: seed)  // seedable, so a failing kill schedule can be named
        try server.fault("tiny.weights", ["rate": 3_000_000])
        let oldWeights = Data(TinyModel.weights(seed: 1)), newWeights = Data(TinyModel.weights(seed: 9))
        var outcomes: [String] = []
        for round in 0..<12 {
            if round < 6 {
                // A first download each time: kills land before, during and after the install.
                try? FileManager.default.removeItem(at: cacheDirectory)
            } else {
                // An update over an installed model each time: the server alternates two weights files.
                if round == 6 { XCTAssertEqual(try detect().status, 0) }
                try server.put("tiny.weights", TinyModel.weights(seed: round % 2 == 0 ? 9 : 1))
            }
            let delay = Double(generator.next() % 3500) / 1000
            try killedRun(after: delay, update: round >= 6)
            let cached = commandStore.cachedModel
            let weights = try cached.map { try Data(contentsOf: $0.weights) }
            if round < 6 {
                XCTAssertTrue(weights == nil || weights == oldWeights, "round \(round), kill after \(delay) s (seed \(seed))")
            } else {
                XCTAssertTrue(weights == oldWeights || weights == newWeights, "round \(round), kill after \(delay) s (seed \(seed))")
            }
            if let cached { XCTAssertNoThrow(try cached.makeDetector(), "round \(round) (seed \(seed))") }
            outcomes.append(String(format: "%.2fs:%@", delay, weights == nil ? "none" : weights == oldWeights ? "seed1" : "seed9"))
        }
        try server.put("tiny.weights", TinyModel.weights(seed: 9))
        print("kill points (seed \(seed)): \(outcomes.joined(separator: " "))")
        let final = try detect(["--update"])
        XCTAssertEqual(final.status, 0, final.stderr)
        XCTAssertEqual(try Data(contentsOf: XCTUnwrap(commandStore.cachedModel).weights), newWeights)
    }

    private func killedRun(after delay: Double, update: Bool) throws {
        let child = try ChildProcess(try tool, ["detect", "--cfg", server.url("tiny.cfg").absoluteString,
                                                "--weights", server.url("tiny.weights").absoluteString,
                                                "--names", server.url("tiny.names").absoluteString,
                                                "--cache", cacheDirectory.path] + (update ? ["--update"] : []) + [try image])
        usleep(UInt32(delay * 1_000_000))
        child.signal(SIGKILL)
        _ = child.wait(timeout: 10)
    }
}
