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
    private static func network(_ precision: Precision, kernels: ReducedKernels? = nil) throws -> Network {
        var options = PlanOptions(precision: precision)
        options.reducedKernels = kernels
        return try Network(cfg: try TestPaths.require(TestPaths.tinyCfg), weights: try TestPaths.require(TestPaths.tinyWeights),
                           options: options)
    }

    /// The running CPU's float16 set, else the portable one (saying so).
    private static var kernels: ReducedKernels {
        if let simd = CPUFeatures.current.reducedKernels(for: .float16) { return simd }
        print("Float16NetworkTests: this CPU has no float16 SIMD kernels (arm64 FEAT_FHM): the portable float16 set "
              + "(FMLAL's arithmetic in C) ran instead")
        return .portableFloat16
    }

    /// On an arm64 CPU with FHM the plan gives float16 to every convolution but the input's and
    /// those float32's Winograd or sliding window computes faster; with FP16 but no FHM
    /// (Cortex-A76), or on x86-64, float32 throughout, and says why; `auto` picks float16 only
    /// where there are float16 kernels and no bfloat16 ones.
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
        for (layer, floatLayer) in zip(convolutions, float.layers.filter { $0.algorithm != nil }).dropFirst() {
            guard case .convolutional(let conv) = floatLayer.spec.kind else { return XCTFail("layer \(layer.index)") }
            let shapes = ConvolutionShapes(conv: conv, input: floatLayer.inputShape, output: floatLayer.outputShape)
            let floatFaster = Float16Convolution.floatIsFaster(floatLayer.algorithm!, shapes)
            XCTAssertEqual(layer.arithmetic, floatFaster ? .float32 : .float16, "layer \(layer.index): float32 takes \(floatLayer.algorithm!)")
            if floatFaster { XCTAssertEqual(layer.algorithm, floatLayer.algorithm) }
            lines.append("\(layer.index) \(layer.arithmetic)")
        }
        print("Float16NetworkTests: YOLOv3-tiny in float16 on \(fhm): " + lines.joined(separator: ", "))
        let reduced = convolutions.filter { $0.arithmetic == .float16 }
        XCTAssertGreaterThanOrEqual(reduced.count, 6, "the 1x1 and 13x13 convolutions")
        XCTAssertTrue(reduced.allSatisfy { $0.algorithm == .float16GEMM && $0.reducedKernels == .fhm })
        for cpu in [CPUFeatures.arm64(dotProduct: true, fp16: true), .x86_64(avx512BF16: true)] {
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
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true, fp16: true)), .float32, "FP16 without FHM")
        XCTAssertEqual(Precision.fastestUncalibrated(on: .x86_64(avx512BF16: true)), .bfloat16)
        let bfloat16 = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: fhm))
        XCTAssertTrue(bfloat16.layers.allSatisfy { $0.arithmetic == .float32 }, "float16 kernels do not serve bfloat16")
    }

    /// The portable float16 set and the CPU's SIMD set give every layer the same bits, on one
    /// thread and on two.
    func testSIMDAndThreadsGiveThePortableBits() throws {
        let portable = try Self.network(.float16, kernels: .portableFloat16)
        let reducedLayers = portable.plan.layers.filter { $0.arithmetic == .float16 }
        XCTAssertGreaterThanOrEqual(reducedLayers.count, 6)
        XCTAssertTrue(reducedLayers.allSatisfy { $0.reducedKernels == .portableFloat16 })
        let input = try Int8NetworkTests.evaluationImages()[0].1.letterboxed(width: 416, height: 416).image.pixels
        func outputs(_ network: Network, threads: Int) throws -> [[Float]] {
            let session = InferenceSession(network: network, retaining: .layers(Set(network.plan.layers.indices)), threads: threads)
            try session.forward(input)
            return try network.plan.layers.indices.map { try session.output(ofLayer: $0).values }
        }
        let reference = try outputs(portable, threads: 1)
        XCTAssertEqual(try outputs(portable, threads: 2), reference)
        guard let simd = CPUFeatures.current.reducedKernels(for: .float16) else {
            print("Float16NetworkTests: this CPU has no float16 SIMD kernels (arm64 FEAT_FHM): only the portable set ran, "
                  + "the SIMD set's network bits were not compared")
            return
        }
        let best = try Self.network(.float16)
        XCTAssertTrue(best.plan.layers.filter { $0.arithmetic == .float16 }.allSatisfy { $0.reducedKernels == simd })
        XCTAssertEqual(try outputs(best, threads: 1), reference, "\(simd) vs portable")
        XCTAssertEqual(try outputs(best, threads: 2), reference, "\(simd) on 2 threads")
    }

    /// float16 keeps at least 99 % of float32's detections (same class, IoU >= 0.9) and adds at
    /// most 1 %, at thresholds 0.25 and 0.5, on 26 images; each layer's largest difference from
    /// float32 on dog.jpg is printed.
    func testTinyFloat16KeepsFloatDetections() throws {
        let float = try Self.network(.float32)
        let reduced = try Self.network(.float16, kernels: Self.kernels)
        XCTAssertGreaterThanOrEqual(reduced.plan.layers.filter { $0.arithmetic == .float16 }.count, 6)
        let floatDetector = try Detector(network: float), reducedDetector = try Detector(network: reduced)
        let images = try BFloat16NetworkTests.images()
        for threshold: Float in [0.25, 0.5] {
            var comparison = Int8NetworkTests.Comparison()
            for (_, image) in images {
                Int8NetworkTests.compare(try floatDetector.detect(image, threshold: threshold),
                                         try reducedDetector.detect(image, threshold: threshold), minimumIoU: 0.9, into: &comparison)
            }
            let kept = Double(comparison.recovered) / Double(comparison.float), extra = Double(comparison.extra) / Double(comparison.float)
            print(String(format: "fp16 YOLOv3-tiny, %d images, threshold %.2f: %d float detections, %d kept (%.1f %%), %d extra (%.1f %%); "
                         + "largest confidence difference %.4f, smallest IoU %.3f", images.count, threshold, comparison.float,
                         comparison.recovered, 100 * kept, comparison.extra, 100 * extra,
                         comparison.largestConfidenceDifference, comparison.smallestIoU))
            XCTAssertGreaterThanOrEqual(comparison.float, 30)
            XCTAssertGreaterThanOrEqual(kept, 0.99, "threshold \(threshold)")
            XCTAssertLessThanOrEqual(extra, 0.01, "threshold \(threshold)")
        }
        let input = try Int8NetworkTests.evaluationImages()[0].1.letterboxed(width: 416, height: 416).image.pixels
        let all = Set(float.plan.layers.indices)
        let a = InferenceSession(network: float, retaining: .layers(all)), b = InferenceSession(network: reduced, retaining: .layers(all))
        try a.forward(input)
        try b.forward(input)
        let differences = try float.plan.layers.indices.map { index in
            String(format: "%d %.3f", index, maxAbsDifference(try a.output(ofLayer: index).values, try b.output(ofLayer: index).values))
        }
        print("fp16 YOLOv3-tiny on dog.jpg, each layer's largest difference from float32: " + differences.joined(separator: ", "))
    }
}
