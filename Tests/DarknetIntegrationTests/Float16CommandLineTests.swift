import Darknet
import Foundation
import TestSupport
import XCTest

/// `--precision fp16` on the command line: what it says, that the detections do not depend on
/// the thread count (float32's where the CPU has no float16 kernels), and `info --plan` as arm64
/// CPUs with FEAT_FHM, with FEAT_FP16 alone and without either (and with BF16, for bf16).
final class Float16CommandLineTests: XCTestCase {
    private var cfg: String { get throws { try TestPaths.require(TestPaths.tinyCfg).path } }

    func testFP16DetectSaysWhatItRunsAndIsTheSameOnOneAndTwoThreads() throws {
        let image = try TestPaths.require(TestPaths.sample("dog.jpg")).path
        let model = ["detect", "--cfg", try cfg, "--weights", try TestPaths.require(TestPaths.tinyWeights).path, "--json"]
        let one = try SwiftDarknetTool.run(model + ["--precision", "fp16", "--threads", "1", image])
        let two = try SwiftDarknetTool.run(model + ["--precision", "fp16", "--threads", "2", image])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertEqual(one.stdout, two.stdout)
        XCTAssertTrue(one.stdout.contains("\"detections\""), one.stdout)
        let spec = try NetworkSpec.parse(contentsOf: TestPaths.tinyCfg)
        let plan = try NetworkPlan(spec: spec, options: PlanOptions(precision: .float16))
        let reduced = plan.layers.filter { $0.arithmetic == .float16 }.count
        XCTAssertTrue(one.stderr.contains("swift-darknet: fp16: \(reduced) of 13 convolutions in float16; layer 0 in float32: "),
                      one.stderr)
        if CPUFeatures.current.reducedKernels(for: .float16) != nil {
            XCTAssertGreaterThan(reduced, 0)
        } else {
            let float = try SwiftDarknetTool.run(model + [image])
            XCTAssertEqual(float.status, 0, float.stderr)
            XCTAssertEqual(reduced, 0)
            XCTAssertEqual(one.stdout, float.stdout, "no float16 kernels: float32's results")
            print("Float16CommandLineTests: this CPU has no float16 kernels (arm64 FEAT_FP16): fp16 ran float32 throughout; "
                  + "its float16 detections were not exercised here")
        }
    }

    func testInfoPlanShowsFloat16OnArmCPUsWithFP16AndBFloat16WithBF16() throws {
        let fhm = try SwiftDarknetTool.run(["info", "--cfg", try cfg, "--plan", "--cpu", "arm64-fp16-fhm", "--precision", "fp16"])
        XCTAssertEqual(fhm.status, 0, fhm.stderr)
        XCTAssertTrue(fhm.stdout.contains("fp16 gemm | float16: float16 precision, and the CPU multiplies float16 (fhm-fp16 kernels)"),
                      fhm.stdout)
        XCTAssertTrue(fhm.stdout.contains("| float32: float16 precision keeps the network input's convolution in float32"), fhm.stdout)
        let a76 = try SwiftDarknetTool.run(["info", "--cfg", try cfg, "--plan", "--cpu", "arm64-fp16", "--precision", "fp16"])
        XCTAssertEqual(a76.status, 0, a76.stderr)
        XCTAssertTrue(a76.stdout.contains("fp16 gemm | float16: float16 precision, and the CPU multiplies float16 (fmla-fp16 kernels)"),
                      a76.stdout)
        XCTAssertFalse(a76.stdout.contains("fhm-fp16"), a76.stdout)
        let a72 = try SwiftDarknetTool.run(["info", "--cfg", try cfg, "--plan", "--cpu", "arm64", "--precision", "fp16"])
        XCTAssertEqual(a72.status, 0, a72.stderr)
        XCTAssertFalse(a72.stdout.contains("fp16 gemm"), a72.stdout)
        XCTAssertTrue(a72.stdout.contains("| float32: float16 precision, but the CPU has no float16 products"), a72.stdout)
        // bfloat16 on an arm64 CPU with BF16: the BFMMLA set, planned from any machine.
        let bf16 = try SwiftDarknetTool.run(["info", "--cfg", try cfg, "--plan", "--cpu", "arm64-bf16", "--precision", "bf16"])
        XCTAssertEqual(bf16.status, 0, bf16.stderr)
        XCTAssertTrue(bf16.stdout.contains("bf16 gemm | bfloat16: bfloat16 precision, and the CPU multiplies bfloat16 (bfmmla-bf16 kernels)"),
                      bf16.stdout)
    }
}
