import DarknetModels
import Darknet

// The Swift snippets of the article ModelsFromURLs.md, compiled (never run) with only its imports.

func modelsFromURLs1() throws {
    // begin Sources/DarknetModels/DarknetModels.docc/ModelsFromURLs.md 1
    let hosted = try HostedModel(name: "yolov3-tiny",
        cfg: RemoteFile(cfgURL),
        weights: RemoteFile(weightsURL, sha256: weightsSHA256),
        names: RemoteFile(namesURL),
        bundled: BundledModel(cfg: bundledCfg, weights: bundledWeights, names: bundledNames))
    let store = ModelStore(model: hosted, cacheDirectory: cachesURL)
    // end Sources/DarknetModels/DarknetModels.docc/ModelsFromURLs.md 1
    _ = store
}

func modelsFromURLs2() async throws {
    // begin Sources/DarknetModels/DarknetModels.docc/ModelsFromURLs.md 2
    print(store.isDownloaded)                          // from the cache, no network
    let files: ModelFiles
    do {
        files = try await store.update(options: DownloadOptions(progress: { print($0) }))
            .files                                     // or download(): no network once cached
    } catch {                                          // a ModelSourceError: the URL and why
        print(error)
        files = try store.availableModel()             // the cached model, else the bundled one
    }
    let detector = try files.makeDetector()            // keeps working after later updates
    // end Sources/DarknetModels/DarknetModels.docc/ModelsFromURLs.md 2
    _ = detector
}
