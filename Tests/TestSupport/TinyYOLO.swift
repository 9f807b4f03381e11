@_spi(Testing) import Darknet
import Foundation

/// YOLOv3-tiny with its real weights and COCO's names: the network most tests detect with.
public enum TinyYOLO {
    /// A detector for it (or for `cfg`, an edited copy of its cfg), failing the test when a
    /// file is missing.
    public static func detector(cfg: URL? = nil, threads: Int = 1, sessionPolicy: SessionPolicy = SessionPolicy(),
                                file: StaticString = #filePath, line: UInt = #line) throws -> Detector {
        try Detector(cfg: TestPaths.require(cfg ?? TestPaths.tinyCfg, file: file, line: line),
                     weights: TestPaths.require(TestPaths.tinyWeights, file: file, line: line),
                     names: TestPaths.require(TestPaths.cocoNames, file: file, line: line),
                     threads: threads, sessionPolicy: sessionPolicy)
    }
}

/// YOLOv3-tiny's cfg made greyscale (`channels=1`, 224x224) with seeded random weights: the
/// tests' `channels=1` network, as people train them for thermal and greyscale cameras.
public enum GreyTinyYOLO {
    /// The cfg's text.
    public static func cfgText(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let text = try String(contentsOf: try TestPaths.require(TestPaths.tinyCfg, file: file, line: line), encoding: .utf8)
        return text.replacingOccurrences(of: "channels=3", with: "channels=1")
            .replacingOccurrences(of: "width=416", with: "width=224").replacingOccurrences(of: "height=416", with: "height=224")
    }

    /// A detector for it (its weights made in memory, seed 56).
    public static func detector(file: StaticString = #filePath, line: UInt = #line) throws -> Detector {
        let spec = try NetworkSpec.parse(text: try cfgText(file: file, line: line), file: "tiny-grey.cfg")
        return try Detector(network: try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: 56)))
    }

    /// The cfg and its weights (seed 56) written into `directory` as `tiny-grey.cfg` and
    /// `tiny-grey.weights`.
    public static func write(into directory: URL, file: StaticString = #filePath, line: UInt = #line) throws
        -> (cfg: URL, weights: URL) {
        let text = try cfgText(file: file, line: line)
        let spec = try NetworkSpec.parse(text: text, file: "tiny-grey.cfg")
        let cfg = directory.appendingPathComponent("tiny-grey.cfg"), weights = directory.appendingPathComponent("tiny-grey.weights")
        try text.write(to: cfg, atomically: true, encoding: .utf8)
        try Data(try WeightsWriter().randomBytes(for: spec, seed: 56)).write(to: weights)
        return (cfg, weights)
    }
}
