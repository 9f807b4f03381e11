import Darknet
import Foundation
import TestSupport
import XCTest

/// `--kernels NAME` with `--precision bf16|fp16`: the named set runs every such convolution (a
/// portable one computes another CPU's results on any machine), and a name that does not fit the
/// precision or the CPU is a usage error that says what would.
final class KernelsFlagTests: XCTestCase {
    private var cfg: String { get throws { try TestPaths.require(TestPaths.tinyCfg).path } }

    func testPortableFloat16RunsFloat16OnAnyCPU() throws {
        let image = try TestPaths.require(TestPaths.sample("dog.jpg")).path
        let model = ["detect"] + (try TestPaths.tinyModelArguments()) + ["--json"]
        let portable = try SwiftDarknetTool.run(model + ["--precision", "fp16", "--kernels", "portable-fp16", image])
        let float = try SwiftDarknetTool.run(model + [image])
        XCTAssertEqual(portable.status, 0, portable.stderr)
        XCTAssertEqual(float.status, 0, float.stderr)
        var options = PlanOptions(precision: .float16)
        options.reducedKernels = .portableFloat16
        let plan = try NetworkPlan(spec: try NetworkSpec.parse(contentsOf: TestPaths.tinyCfg), options: options)
        let reduced = plan.layers.filter { $0.arithmetic == .float16 }.count
        XCTAssertGreaterThan(reduced, 0)
        XCTAssertTrue(portable.stderr.contains("fp16: \(reduced) of 13 convolutions in float16;"), portable.stderr)
        XCTAssertTrue(portable.stderr.contains("; kernels: portable-fp16"), portable.stderr)
        XCTAssertTrue(portable.stdout.contains("\"detections\""), portable.stdout)
        XCTAssertNotEqual(portable.stdout, float.stdout, "float16 products change the printed probabilities of dog.jpg")
        if let simd = CPUFeatures.current.reducedKernels(for: .float16) {
            let planned = try SwiftDarknetTool.run(model + ["--precision", "fp16", image])
            XCTAssertEqual(planned.status, 0, planned.stderr)
            XCTAssertEqual(planned.stdout, portable.stdout, "\(simd) gives the portable set's bits")
        } else {
            print("KernelsFlagTests: this CPU has no float16 SIMD kernels; the portable set's detections were not compared with one")
        }
    }

    func testNamesThatDoNotFitAreUsageErrors() throws {
        let plan = ["info", "--cfg", try cfg, "--plan"]
        let wrongArithmetic = try SwiftDarknetTool.run(plan + ["--precision", "bf16", "--kernels", "portable-fp16"])
        XCTAssertNotEqual(wrongArithmetic.status, 0)
        XCTAssertTrue(wrongArithmetic.stderr.contains("--kernels for --precision bf16 must be one of portable-bf16, "), wrongArithmetic.stderr)
        XCTAssertTrue(wrongArithmetic.stderr.contains("got 'portable-fp16'"), wrongArithmetic.stderr)
        for precision in ["float32", "auto"] {
            let other = try SwiftDarknetTool.run(plan + ["--precision", precision, "--kernels", "portable-bf16"])
            XCTAssertNotEqual(other.status, 0)
            XCTAssertTrue(other.stderr.contains("--kernels is for --precision bf16 or fp16, got --precision \(precision)"), other.stderr)
        }
        // A SIMD set of the other architecture: named, but not run here.
        let foreign: ReducedKernels = CPUFeatures.current.architecture == .arm64 ? .avx512 : .bfmmla
        let elsewhere = try SwiftDarknetTool.run(plan + ["--precision", "bf16", "--kernels", foreign.description])
        XCTAssertNotEqual(elsewhere.status, 0)
        // The sets it lists: both portable ones, and this CPU's own SIMD set where it has one (avx512-bf16 on a Zen 4).
        let cpu = CPUFeatures.current
        let here = ReducedKernels.allCases.filter { $0.arithmetic == .bfloat16 && $0.runs(on: cpu.architecture, cpu.extensions) }
        XCTAssertTrue(here.contains(.portable) && here.contains(.portableARM) && !here.contains(foreign), "\(here)")
        XCTAssertTrue(elsewhere.stderr.contains("--kernels \(foreign): this CPU does not run it; it runs "
                                                + here.map(\.description).joined(separator: ", ")), elsewhere.stderr)
        // Planned for a CPU that runs it, the same name is accepted.
        let planned = foreign == .bfmmla ? "arm64-bf16" : "x86-64-avx512-bf16"
        let there = try SwiftDarknetTool.run(plan + ["--precision", "bf16", "--kernels", foreign.description, "--cpu", planned])
        XCTAssertEqual(there.status, 0, there.stderr)
        XCTAssertTrue(there.stdout.contains("(\(foreign) kernels)"), there.stdout)
    }
}
