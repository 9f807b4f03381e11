@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// bfloat16 networks (`Precision.bfloat16`) with the real YOLOv3-tiny weights: the detections
/// against float32's, the SIMD set against the portable one and the thread count, bit for bit.
final class BFloat16NetworkTests: XCTestCase {
    private static func network(_ precision: Precision, kernels: ReducedKernels? = nil) throws -> Network {
        var options = PlanOptions(precision: precision)
        options.reducedKernels = kernels
        return try Network(cfg: try TestPaths.require(TestPaths.tinyCfg), weights: try TestPaths.require(TestPaths.tinyWeights),
                           options: options)
    }

    /// Darknet's seven sample photos, the six calibration photos and all their mirror images.
    static func images() throws -> [(String, PlanarImage)] {
        let folder = TestPaths.weights.appendingPathComponent("calibration")
        let photos = try Int8Calibration.imageFiles(in: folder).map { ($0.lastPathComponent, try PlanarImage(contentsOf: $0)) }
        let all = try Int8NetworkTests.evaluationImages() + photos
        return try all + all.map { ("\($0.0)-mirrored", try Int8NetworkTests.mirrored($0.1)) }
    }

    /// The plan gives bfloat16 to every convolution but the input's and those float32's Winograd
    /// or sliding window computes faster, where the CPU multiplies it; float32 elsewhere; and
    /// says why.
    func testPlanGivesBFloat16WhereTheCPUHasIt() throws {
        let spec = try NetworkSpec.parse(contentsOf: try TestPaths.require(TestPaths.tinyCfg))
        let withBF16 = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: .x86_64(avx512BF16: true)))
        let convolutions = withBF16.layers.filter { $0.algorithm != nil }
        XCTAssertEqual(convolutions.count, 13)
        XCTAssertEqual(convolutions[0].arithmetic, .float32, "the input's convolution reads pixels")
        XCTAssertEqual(convolutions[0].algorithm, .slidingWindow)
        let float = try NetworkPlan(spec: spec, options: PlanOptions(cpu: .x86_64(avx512BF16: true)))
        for (layer, floatLayer) in zip(convolutions, float.layers.filter { $0.algorithm != nil }).dropFirst() {
            let floatFaster = BFloat16Convolution.floatIsFaster(floatLayer.algorithm!, ConvolutionShapes(
                conv: { if case .convolutional(let c) = floatLayer.spec.kind { c } else { fatalError() } }(),
                input: floatLayer.inputShape, output: floatLayer.outputShape))
            XCTAssertEqual(layer.arithmetic, floatFaster ? .float32 : .bfloat16, "layer \(layer.index): float32 takes \(floatLayer.algorithm!)")
            if floatFaster { XCTAssertEqual(layer.algorithm, floatLayer.algorithm) }
        }
        let reduced = convolutions.filter { $0.arithmetic == .bfloat16 }
        XCTAssertGreaterThanOrEqual(reduced.count, 6, "the 1x1 and 13x13 convolutions")
        XCTAssertTrue(reduced.allSatisfy { $0.algorithm == .bfloat16GEMM && $0.reducedKernels == .avx512 })
        let without = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: .x86_64(avx512VNNI: true)))
        XCTAssertTrue(without.layers.filter { $0.algorithm != nil }.allSatisfy { $0.arithmetic == .float32 })
        XCTAssertTrue(without.layers.contains { $0.arithmeticReason == "bfloat16 precision, but the CPU has no bfloat16 products" })
        XCTAssertEqual(float.layers.map(\.algorithm), without.layers.map(\.algorithm), "float32 plans ignore bfloat16 kernels")
        XCTAssertEqual(Precision.fastestUncalibrated(on: .x86_64(avx512BF16: true)), .bfloat16)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .x86_64(avx512VNNI: true)), .float32)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true, fp16: true, bf16: true)), .bfloat16)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true, fp16: true)), .float32)
        let arm = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: .arm64(dotProduct: true, bf16: true)))
        let armReduced = arm.layers.filter { $0.arithmetic == .bfloat16 }
        XCTAssertGreaterThanOrEqual(armReduced.count, 6, "arm64 with BF16")
        XCTAssertTrue(armReduced.allSatisfy { $0.algorithm == .bfloat16GEMM && $0.reducedKernels == .bfdot })
    }

    /// The portable set the CPU's SIMD set emulates (VDPBF16PS's or BFDOT's arithmetic in C) and
    /// that SIMD set give every layer the same bits, on one thread and on two.
    func testSIMDAndThreadsGiveThePortableBits() throws {
        let reference = CPUFeatures.current.reducedKernels?.reference ?? .portable
        let portable = try Self.network(.bfloat16, kernels: reference)
        XCTAssertTrue(portable.plan.layers.filter { $0.arithmetic == .bfloat16 }.allSatisfy { $0.reducedKernels == reference })
        let input = try Int8NetworkTests.evaluationImages()[0].1.letterboxed(width: 416, height: 416).image.pixels
        func outputs(_ network: Network, threads: Int) throws -> [[Float]] {
            let session = InferenceSession(network: network, retaining: .layers(Set(network.plan.layers.indices)), threads: threads)
            try session.forward(input)
            return try network.plan.layers.indices.map { try session.output(ofLayer: $0).values }
        }
        let expected = try outputs(portable, threads: 1)
        XCTAssertEqual(try outputs(portable, threads: 2), expected)
        guard let simd = CPUFeatures.current.reducedKernels else {
            print("BFloat16NetworkTests: this CPU has no bfloat16 SIMD kernels (AVX512_BF16, arm64 BF16): only the portable set ran")
            return
        }
        let best = try Self.network(.bfloat16)
        XCTAssertTrue(best.plan.layers.filter { $0.arithmetic == .bfloat16 }.allSatisfy { $0.reducedKernels == simd })
        XCTAssertEqual(try outputs(best, threads: 1), expected, "\(simd) vs \(reference)")
        XCTAssertEqual(try outputs(best, threads: 2), expected, "\(simd) on 2 threads")
    }

    /// bfloat16 keeps at least 99 % of float32's detections (same class, IoU >= 0.9) and adds at
    /// most 1 %, at thresholds 0.25 and 0.5, on 26 images; each layer's largest difference from
    /// float32 on dog.jpg is printed.
    func testTinyBFloat16KeepsFloatDetections() throws {
        try keepsFloatDetections(CPUFeatures.current.reducedKernels ?? .portable, "bf16")
    }

    /// The same for arm64's BFDOT arithmetic (round to odd), through its portable set: the bits
    /// the BFDOT set gives (`BFloat16KernelTests` and `testSIMDAndThreadsGiveThePortableBits`
    /// under qemu show they are equal).
    func testTinyARMBFloat16KeepsFloatDetections() throws {
        try keepsFloatDetections(.portableARM, "bf16 (arm64 BFDOT arithmetic)")
    }

    private func keepsFloatDetections(_ kernels: ReducedKernels, _ label: String) throws {
        let float = try Self.network(.float32)
        let reduced = try Self.network(.bfloat16, kernels: kernels)
        let floatDetector = try Detector(network: float), reducedDetector = try Detector(network: reduced)
        let images = try Self.images()
        for threshold: Float in [0.25, 0.5] {
            var comparison = Int8NetworkTests.Comparison()
            for (_, image) in images {
                Int8NetworkTests.compare(try floatDetector.detect(image, threshold: threshold),
                                         try reducedDetector.detect(image, threshold: threshold), minimumIoU: 0.9, into: &comparison)
            }
            let kept = Double(comparison.recovered) / Double(comparison.float), extra = Double(comparison.extra) / Double(comparison.float)
            print(String(format: "%@ YOLOv3-tiny, %d images, threshold %.2f: %d float detections, %d kept (%.1f %%), %d extra (%.1f %%); "
                         + "largest confidence difference %.4f, smallest IoU %.3f", label, images.count, threshold, comparison.float,
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
        print("\(label) YOLOv3-tiny on dog.jpg, each layer's largest difference from float32: " + differences.joined(separator: ", "))
    }
}
