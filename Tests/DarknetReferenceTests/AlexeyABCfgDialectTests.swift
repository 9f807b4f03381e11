@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The dialect read from real cfg files: the original YOLOv3-tiny and AlexeyAB's YOLOv4 cfgs
/// (in Weights/; AlexeyABLayerTests, in the unit tier, holds the dialect's keys on cfg text).
final class AlexeyABCfgDialectTests: XCTestCase {
    func testOriginalDarknetCfgsKeepTheOriginalBatchNormEpsilon() throws {
        let cfg = try TestPaths.require(TestPaths.tinyCfg)
        XCTAssertEqual(try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: cfg)), file: cfg.path).dialect, .original)
        for name in ["yolov4.cfg", "yolov4-tiny.cfg", "yolov4-sam-mish.cfg"] {
            let url = try TestPaths.require(TestPaths.weights.appendingPathComponent("alexeyab/" + name))
            let spec = try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: url)), file: url.path)
            XCTAssertEqual(spec.dialect, .alexeyAB, name)
            // yolov4-sam-mish.cfg carries `beta1=0.6` in each [yolo]; AlexeyAB's parser does not
            // read it either (it reports it as unused), so it is the one remark.
            XCTAssertEqual(spec.diagnostics.map(\.key), name == "yolov4-sam-mish.cfg" ? ["beta1", "beta1", "beta1"] : [], name)
        }
    }
}
