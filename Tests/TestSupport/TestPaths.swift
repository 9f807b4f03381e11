import Foundation
import XCTest

/// Where the files the tests read are. The README's test command fetches the weights and sample
/// images and generates the fixtures; a missing file fails the test that needs it, with that
/// command in the message.
public enum TestPaths {
    /// The package's folder (this file is `Tests/TestSupport/TestPaths.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let weights = packageRoot.appendingPathComponent("Weights")
    /// Darknet's reference cfgs (Debian's package).
    public static let darknetCfg = weights.appendingPathComponent("darknet/cfg")
    /// Darknet's sample photos and label files.
    public static let darknetData = weights.appendingPathComponent("darknet/data")
    /// What `Tools/make-fixtures*.sh` generate.
    public static let fixtures = packageRoot.appendingPathComponent("Fixtures/generated")

    /// YOLOv3-tiny: the original cfg, the real weights, COCO's names.
    public static let tinyCfg = darknetCfg.appendingPathComponent("yolov3-tiny.cfg")
    public static let tinyWeights = weights.appendingPathComponent("yolov3-tiny.weights")
    public static let cocoNames = darknetData.appendingPathComponent("coco.names")

    /// A file of Darknet's data folder: a sample photo (`dog.jpg`), a names file, `9k.tree`.
    public static func sample(_ name: String) -> URL { darknetData.appendingPathComponent(name) }

    /// `url`, failing the test (and throwing) when there is no such file or folder.
    public static func require(_ url: URL, _ hint: String = "run ./scripts/test.sh (it fetches the weights and sample images and generates the fixtures)",
                               file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing \(url.path): \(hint)", file: file, line: line)
            throw MissingFile(path: url.path)
        }
        return url
    }

    /// `--cfg`, `--weights` and `--names` of YOLOv3-tiny with COCO's names, for `swift-darknet`.
    public static func tinyModelArguments(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        ["--cfg", try require(tinyCfg, file: file, line: line).path,
         "--weights", try require(tinyWeights, file: file, line: line).path,
         "--names", try require(cocoNames, file: file, line: line).path]
    }

    public struct MissingFile: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "missing \(path)" }
    }
}
