import Darknet
import Foundation
import TestSupport
import XCTest

/// `--precision bf16` and `auto` on the command line: what they say, and that the detections do
/// not depend on the thread count.
final class BFloat16CommandLineTests: XCTestCase {
    private var model: [String] {
        get throws {
            ["detect", "--cfg", try TestPaths.require(TestPaths.tinyCfg).path,
             "--weights", try TestPaths.require(TestPaths.tinyWeights).path, "--json"]
        }
    }

    func testBF16DetectSaysWhatItRunsAndIsTheSameOnOneAndTwoThreads() throws {
        let image = try TestPaths.require(TestPaths.sample("dog.jpg")).path
        let one = try SwiftDarknetTool.run(try model + ["--precision", "bf16", "--threads", "1", image])
        let two = try SwiftDarknetTool.run(try model + ["--precision", "bf16", "--threads", "2", image])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertEqual(one.stdout, two.stdout)
        XCTAssertTrue(one.stdout.contains("\"detections\""), one.stdout)
        let float = try SwiftDarknetTool.run(try model + [image])
        XCTAssertEqual(float.status, 0, float.stderr)
        let spec = try NetworkSpec.parse(contentsOf: TestPaths.tinyCfg)
        let plan = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16))
        let reduced = plan.layers.filter { $0.arithmetic == .bfloat16 }.count
        XCTAssertTrue(one.stderr.contains("swift-darknet: bf16: \(reduced) of 13 convolutions in bfloat16; layer 0 in float32: "),
                      one.stderr)
        if let kernels = CPUFeatures.current.reducedKernels(for: .bfloat16) {
            XCTAssertGreaterThan(reduced, 0)
            XCTAssertTrue(one.stderr.contains("; kernels: \(kernels)\n"), one.stderr)
            XCTAssertNotEqual(one.stdout, float.stdout, "bfloat16 moves the confidences")
        } else {
            XCTAssertEqual(reduced, 0)
            XCTAssertEqual(one.stdout, float.stdout, "no bfloat16 kernels: float32's results")
            print("BFloat16CommandLineTests: this CPU has no AVX512_BF16: bf16 ran float32 throughout")
        }
        let auto = try SwiftDarknetTool.run(try model + ["--precision", "auto", image])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertEqual(auto.stdout, CPUFeatures.current.reducedKernels(for: .bfloat16) != nil ? one.stdout : float.stdout)
        XCTAssertTrue(auto.stderr.hasPrefix(CPUFeatures.current.reducedKernels(for: .bfloat16) != nil
                                            ? "swift-darknet: precision auto: bf16 (this CPU multiplies bfloat16: \(CPUFeatures.current.reducedKernelsName(for: .bfloat16)))\n"
                                            : "swift-darknet: precision auto: float32 (this CPU has no bfloat16 kernels"), auto.stderr)
    }
}
