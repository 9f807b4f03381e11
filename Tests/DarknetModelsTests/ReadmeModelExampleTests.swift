import Darknet
import DarknetModels
import Foundation
import XCTest

/// The README's "models from a URL" example, compiled and run against the local server: once
/// with the server up (downloaded), once with it down and no cache (the bundled model).
final class ReadmeModelExampleTests: ModelTestCase {
    func testReadmeExampleDownloadsAndFallsBack() async throws {
        let cfgURL = server.url("tiny.cfg"), weightsURL = server.url("tiny.weights"), namesURL = server.url("tiny.names")
        let weightsSHA256 = ModelChecksum.hex(of: TinyModel.weights(seed: 1))
        let bundle = cacheDirectory.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let bundledCfg = bundle.appendingPathComponent("b.cfg"), bundledWeights = bundle.appendingPathComponent("b.weights")
        let bundledNames = bundle.appendingPathComponent("b.names")
        try Data(TinyModel.cfgBytes).write(to: bundledCfg)
        try Data(TinyModel.weights(seed: 2)).write(to: bundledWeights)
        try Data(TinyModel.namesBytes).write(to: bundledNames)

        for serverUp in [true, false] {
            let cachesURL = cacheDirectory.appendingPathComponent(serverUp ? "up" : "down")
            if !serverUp { server.stop() }

            // begin README.md 5, Sources/DarknetModels/README.md 1
            let hosted = try HostedModel(name: "yolov3-tiny",           // the cache folder's name
                cfg: RemoteFile(cfgURL),                            // http(s):// or file:// URLs
                weights: RemoteFile(weightsURL, sha256: weightsSHA256),
                names: RemoteFile(namesURL),
                bundled: BundledModel(cfg: bundledCfg, weights: bundledWeights, names: bundledNames))
            let store = ModelStore(model: hosted, cacheDirectory: cachesURL)
            print(store.isDownloaded)                            // from the cache, no network
            let files: ModelFiles
            do {
                files = try await store.update(options: DownloadOptions(idleTimeout: 30, progress: { p in
                    print(p.role, p.fileBytes, p.fileTotal ?? -1, p.overallBytes, p.overallTotal ?? -1)
                })).files                                        // or store.download(): no network once cached
            } catch {                                           // a ModelSourceError: the URL and why
                print(error)
                files = try store.availableModel()               // the cached model, else the bundled one
            }
            let detector = try files.makeDetector()              // keeps working after later updates
            // end README.md 5, Sources/DarknetModels/README.md 1

            XCTAssertEqual(detector.labels, ["thing"])
            if serverUp {
                XCTAssertTrue(store.isDownloaded)
                XCTAssertEqual(try Data(contentsOf: files.weights), Data(TinyModel.weights(seed: 1)))
            } else {
                XCTAssertEqual(files.origin, .bundled)
            }
        }
    }
}
