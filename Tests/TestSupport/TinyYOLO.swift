import Darknet
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
