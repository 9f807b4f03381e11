import Darknet
import DarknetImage
import DarknetModels
import DarknetVideo
import Foundation

/// A small app on SwiftDarknet: a photo's detections as JSON, a video's frame by frame, and a
/// model hosted at URLs, downloaded once into a cache.
///
///     DetectApp photo CFG WEIGHTS NAMES IMAGE
///     DetectApp video CFG WEIGHTS NAMES VIDEO
///     DetectApp hosted CFG_URL WEIGHTS_URL NAMES_URL WEIGHTS_SHA256 CACHE_DIR IMAGE
@main
struct DetectApp {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch (arguments.first, arguments.count) {
            case ("photo", 5):
                let detector = try Detector(cfg: url(arguments[1]), weights: url(arguments[2]), names: url(arguments[3]),
                                            threads: AvailableCores.count)
                try await printPhoto(arguments[4], detector)
            case ("video", 5):
                let detector = try Detector(cfg: url(arguments[1]), weights: url(arguments[2]), names: url(arguments[3]),
                                            threads: AvailableCores.count)
                try await printVideo(arguments[4], detector)
            case ("hosted", 7):
                let detector = try await hostedDetector(cfg: arguments[1], weights: arguments[2], names: arguments[3],
                                                        sha256: arguments[4], cache: url(arguments[5]))
                try await printPhoto(arguments[6], detector)
            default:
                FileHandle.standardError.write(Data("""
                    usage: DetectApp photo CFG WEIGHTS NAMES IMAGE
                           DetectApp video CFG WEIGHTS NAMES VIDEO
                           DetectApp hosted CFG_URL WEIGHTS_URL NAMES_URL WEIGHTS_SHA256 CACHE_DIR IMAGE

                    """.utf8))
                exit(2)
            }
        } catch {
            // Every SwiftDarknet error is one line naming the file or URL and what was expected.
            FileHandle.standardError.write(Data("DetectApp: \(error)\n".utf8))
            exit(1)
        }
    }

    /// One photo's detections, as one JSON object.
    struct PhotoDetections: Codable {
        let image: String
        let width: Int
        let height: Int
        let detections: [Detection]
    }

    /// One video frame's detections, as one JSON line.
    struct FrameDetections: Codable {
        let frame: Int
        let seconds: Double
        let detections: [Detection]
    }

    static func printPhoto(_ path: String, _ detector: Detector) async throws {
        let image = try PlanarImage(contentsOf: url(path))
        let detections = try await detector.detect(image, threshold: 0.5)   // the pass runs off Swift's cooperative pool
        print(try json(PhotoDetections(image: path, width: image.width, height: image.height, detections: detections)))
    }

    /// Every frame of the video in order: decoded on a thread of its own, each frame's detections
    /// printed as they come.
    static func printVideo(_ path: String, _ detector: Detector) async throws {
        let pipeline = DetectionPipeline(detector: detector, policy: .every)
        for try await result in pipeline.process(try VideoReader(source: path)) {
            let time = result.presentationTime.components
            let seconds = Double(time.seconds) + Double(time.attoseconds) / 1e18
            print(try json(FrameDetections(frame: result.index, seconds: seconds, detections: result.detections)))
        }
    }

    /// The model at the three URLs (`http(s)://` or `file://`), downloaded into `cache` on the
    /// first run and checked against the weights' SHA-256; later runs load the cached copy
    /// without touching the network.
    static func hostedDetector(cfg: String, weights: String, names: String, sha256: String, cache: URL) async throws -> Detector {
        let hosted = HostedModel(name: "detect-app",
                                 cfg: RemoteFile(try remote(cfg)),
                                 weights: try RemoteFile(try remote(weights), sha256: sha256),   // a malformed digest fails here
                                 names: RemoteFile(try remote(names)))
        let store = ModelStore(model: hosted, cacheDirectory: cache)
        let cached = store.isDownloaded
        let files = try await store.download(options: DownloadOptions(idleTimeout: 30))
        FileHandle.standardError.write(Data("DetectApp: \(cached ? "cached" : "downloaded") \(files)\n".utf8))
        return try files.makeDetector(threads: AvailableCores.count)
    }

    static func url(_ path: String) -> URL { URL(fileURLWithPath: path) }

    static func remote(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme != nil else { throw BadURL(text: text) }
        return url
    }

    struct BadURL: Error, CustomStringConvertible {
        let text: String
        var description: String { "'\(text)': expected an http://, https:// or file:// URL" }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
