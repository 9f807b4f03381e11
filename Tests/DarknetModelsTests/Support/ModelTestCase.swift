import Darknet
import DarknetModels
import Foundation
import TestSupport
import XCTest

/// A test with its own HTTP server serving the tiny model, and its own cache folder.
class ModelTestCase: XCTestCase {
    var server: ModelServer!
    var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try ModelServer()
        cacheDirectory = try temporaryDirectory("model-cache")
        try server.put("tiny.cfg", TinyModel.cfgBytes)
        try server.put("tiny.weights", TinyModel.weights(seed: 1))
        try server.put("tiny.names", TinyModel.namesBytes)
    }

    override func tearDown() {
        server?.stop()
    }

    /// The served tiny model, with checksums unless told otherwise.
    func hostedModel(weightsSHA256: String? = ModelChecksum.hex(of: TinyModel.weights(seed: 1)),
                     bundled: BundledModel? = nil) -> HostedModel {
        HostedModel(name: "tiny",
                    cfg: remoteFile("tiny.cfg", sha256: ModelChecksum.hex(of: TinyModel.cfgBytes)),
                    weights: remoteFile("tiny.weights", sha256: weightsSHA256),
                    names: RemoteFile(server.url("tiny.names")),
                    bundled: bundled)
    }

    /// A served file with a checksum; a digest `RemoteFile` refuses fails the test.
    func remoteFile(_ name: String, sha256: String?, file: StaticString = #filePath, line: UInt = #line) -> RemoteFile {
        do {
            return try RemoteFile(server.url(name), sha256: sha256)
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return RemoteFile(server.url(name))
        }
    }

    func store(_ model: HostedModel? = nil) -> ModelStore {
        ModelStore(model: model ?? hostedModel(), cacheDirectory: cacheDirectory)
    }

    /// The error a call throws, failing the test if it throws none or another type.
    func sourceError(file: StaticString = #filePath, line: UInt = #line,
                     _ body: () throws -> Void) -> ModelSourceError? {
        do {
            try body()
            XCTFail("expected a ModelSourceError", file: file, line: line)
        } catch let error as ModelSourceError {
            return error
        } catch {
            XCTFail("expected a ModelSourceError, got \(error)", file: file, line: line)
        }
        return nil
    }

    /// Detections of the tiny model on a fixed synthetic image (the random weights find
    /// something at a low threshold).
    func detections(_ detector: Detector) throws -> [Detection] {
        let pixels: [Float] = (0..<(3 * 32 * 32)).map { (index: Int) -> Float in Float((index * 37) % 101) / 100 }
        let image = try PlanarImage(width: 32, height: 32, channels: 3, pixels: pixels)
        return try detector.detect(image, options: DetectionOptions(threshold: 0.0001))
    }
}
