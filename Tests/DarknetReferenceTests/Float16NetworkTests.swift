@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// float16 networks (`Precision.float16`) with the real YOLOv3-tiny weights: which layers each
/// CPU plans in float16, the SIMD set against the portable one and the thread count, bit for bit,
/// and the detections against float32's. The portable set is FMLAL's arithmetic exactly
/// (`Float16KernelTests` checks the arm64 set against it under emulation), so on a CPU without
/// float16 kernels the portable set's detections are those an arm64 CPU with FEAT_FHM gives.
final class Float16NetworkTests: XCTestCase {
    /// The running CPU's float16 set, else the portable one (saying so).
    private static var kernels: ReducedKernels {
        if let simd = CPUFeatures.current.reducedKernels(for: .float16) { return simd }
        print("Float16NetworkTests: this CPU has no float16 SIMD kernels (arm64 FEAT_FHM): the portable float16 set "
              + "(FMLAL's arithmetic in C) ran instead")
        return .portableFloat16
    }

    /// On an arm64 CPU with FHM the plan gives float16 to every convolution but the input's and
    /// those float32's Winograd or sliding window computes faster; with FP16 but no FHM
    /// (Cortex-A76) the same layers, on the FMLA set in half sums; on x86-64, float32 throughout,
    /// and says why; `auto` picks float16 only where there are float16 kernels and no bfloat16 ones.
    func testPlanGivesFloat16WhereTheCPUHasFHM() throws {
        let spec = try NetworkSpec.parse(contentsOf: try TestPaths.require(TestPaths.tinyCfg))
        let fhm = CPUFeatures.arm64(dotProduct: true, fhm: true)
        let withFHM = try NetworkPlan(spec: spec, options: PlanOptions(precision: .float16, cpu: fhm))
        let convolutions = withFHM.layers.filter { $0.algorithm != nil }
        XCTAssertEqual(convolutions.count, 13)
        XCTAssertEqual(convolutions[0].arithmetic, .float32, "the input's convolution reads pixels")
        XCTAssertEqual(convolutions[0].arithmeticReason,
                       "float16 precision keeps the network input's convolution in float32 (as bfloat16 does; not measured in float16)")
        let float = try NetworkPlan(spec: spec, options: PlanOptions(cpu: fhm))
        var lines: [String] = []
        for (layer, floatLayer) in withFHM.convolutionsAfterTheInput(beside: float) {
            guard case .convolutional(let conv) = floatLayer.spec.kind else { return XCTFail("layer \(layer.index)") }
            let shapes = ConvolutionShapes(conv: conv, input: floatLayer.inputShape, output: floatLayer.outputShape)
            let floatFaster = ReducedConvolutionShapes.floatIsFaster(floatLayer.algorithm!, shapes, on: .fhm)
            XCTAssertEqual(layer.arithmetic, floatFaster ? .float32 : .float16, "layer \(layer.index): float32 takes \(floatLayer.algorithm!)")
            if floatFaster { XCTAssertEqual(layer.algorithm, floatLayer.algorithm) }
            lines.append("\(layer.index) \(layer.arithmetic)")
        }
        print("Float16NetworkTests: YOLOv3-tiny in float16 on \(fhm): " + lines.joined(separator: ", "))
        // float16's products come at float32's rate: float32's sliding window keeps its layers.
        let slidingWindow = withFHM.slidingWindowLayers(beside: float)
        XCTAssertFalse(slidingWindow.isEmpty, "float32 takes its sliding window after the input's convolution")
        XCTAssertTrue(slidingWindow.allSatisfy {
            $0.arithmetic == .float32 && $0.arithmeticReason == "float16 precision, but float32's Winograd or sliding window is faster here"
        }, "\(slidingWindow.map { "\($0.index): \($0.arithmetic)" })")
        let reduced = convolutions.filter { $0.arithmetic == .float16 }
        XCTAssertGreaterThanOrEqual(reduced.count, 6, "the 1x1 and 13x13 convolutions")
        XCTAssertTrue(reduced.allSatisfy { $0.algorithm == .float16GEMM && $0.reducedKernels == .fhm })
        let a76 = CPUFeatures.arm64(dotProduct: true, fp16: true)
        let withFP16 = try NetworkPlan(spec: spec, options: PlanOptions(precision: .float16, cpu: a76))
        XCTAssertEqual(withFP16.layers.map(\.arithmetic), withFHM.layers.map(\.arithmetic), "the same rules, other kernels")
        XCTAssertEqual(withFP16.layers.map(\.arithmeticReason), withFHM.layers.map(\.arithmeticReason))
        XCTAssertTrue(withFP16.layers.filter { $0.arithmetic == .float16 }.allSatisfy { $0.reducedKernels == .fmla })
        XCTAssertEqual(CPUFeatures.arm64(fhm: true, bf16: true).reducedKernels(for: .float16), .fhm, "FMLAL where a CPU has both")
        for cpu in [CPUFeatures.arm64(dotProduct: true), .x86_64(avx512BF16: true)] {
            let without = try NetworkPlan(spec: spec, options: PlanOptions(precision: .float16, cpu: cpu))
            let withoutConvolutions = without.layers.filter { $0.algorithm != nil }
            XCTAssertTrue(withoutConvolutions.allSatisfy { $0.arithmetic == .float32 }, "\(cpu)")
            XCTAssertTrue(withoutConvolutions.allSatisfy { $0.arithmeticReason == "float16 precision, but the CPU has no float16 products" },
                          "\(cpu): \(withoutConvolutions.map { $0.arithmeticReason ?? "nil" })")
            let floatPlan = try NetworkPlan(spec: spec, options: PlanOptions(cpu: cpu))
            XCTAssertEqual(floatPlan.layers.map(\.algorithm), without.layers.map(\.algorithm), "\(cpu): float32's algorithms")
        }
        XCTAssertEqual(Precision.fastestUncalibrated(on: fhm), .float16)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true, fhm: true, bf16: true)), .bfloat16,
                       "bfloat16 first where there are both")
        XCTAssertEqual(Precision.fastestUncalibrated(on: a76), .float16, "FP16 without FHM")
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true)), .float32, "no FP16")
        XCTAssertEqual(Precision.fastestUncalibrated(on: .x86_64(avx512BF16: true)), .bfloat16)
        let bfloat16 = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: fhm))
        XCTAssertTrue(bfloat16.layers.allSatisfy { $0.arithmetic == .float32 }, "float16 kernels do not serve bfloat16")
    }

    /// The portable float16 set and the CPU's SIMD set give every layer the same bits, on one
    /// thread and on two.
    func testSIMDAndThreadsGiveThePortableBits() throws {
        try ReducedPrecisionChecks.simdAndThreadsGiveThePortableBits(.float16, portable: .portableFloat16,
                                                                     label: "Float16NetworkTests", minimumReducedLayers: 6)
    }

    /// The FMLA set in half sums gives its portable set's bits on every layer, on one thread and
    /// on two (where the CPU runs it: arm64 with FEAT_FP16, qemu's `max` among them).
    func testHalfSumSetGivesThePortableBits() throws {
        try ReducedPrecisionChecks.simdAndThreadsGiveThePortableBits(.float16, portable: .portableHalfSums,
                                                                     label: "Float16NetworkTests (half sums)",
                                                                     minimumReducedLayers: 6, pinned: .fmla)
    }

    /// float16 in half sums (FMLA's arithmetic, as Cortex-A76 computes it) keeps at least 99 % of
    /// float32's detections and adds at most 1 %, at thresholds 0.25 and 0.5, on 13 images (the
    /// portable set is twice as slow as FMLAL's).
    func testTinyFloat16InHalfSumsKeepsFloatDetections() throws {
        let cpu = CPUFeatures.current
        let kernels: ReducedKernels = ReducedKernels.fmla.runs(on: cpu.architecture, cpu.extensions) ? .fmla : .portableHalfSums
        try ReducedPrecisionChecks.keepsFloatDetections(.float16, kernels: kernels, label: "fp16 (half sums, \(kernels))",
                                                        minimumReducedLayers: 6, mirrored: false)
    }

    /// float16 keeps at least 99 % of float32's detections (same class, IoU >= 0.9) and adds at
    /// most 1 %, at thresholds 0.25 and 0.5, on 26 images; each layer's largest difference from
    /// float32 on dog.jpg is printed.
    func testTinyFloat16KeepsFloatDetections() throws {
        try ReducedPrecisionChecks.keepsFloatDetections(.float16, kernels: Self.kernels, label: "fp16", minimumReducedLayers: 6)
    }
}
