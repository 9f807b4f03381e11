@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// bfloat16 networks (`Precision.bfloat16`) with the real YOLOv3-tiny weights: the detections
/// against float32's, the SIMD set against the portable one and the thread count, bit for bit.
final class BFloat16NetworkTests: XCTestCase {
    /// The plan gives bfloat16 to every convolution but the input's and those float32's Winograd
    /// computes faster, where the CPU multiplies it; float32 elsewhere; and says why.
    func testPlanGivesBFloat16WhereTheCPUHasIt() throws {
        let spec = try NetworkSpec.parse(contentsOf: try TestPaths.require(TestPaths.tinyCfg))
        let withBF16 = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: .x86_64(avx512BF16: true)))
        let convolutions = withBF16.layers.filter { $0.algorithm != nil }
        XCTAssertEqual(convolutions.count, 13)
        XCTAssertEqual(convolutions[0].arithmetic, .float32, "the input's convolution reads pixels")
        XCTAssertEqual(convolutions[0].algorithm, .slidingWindow)
        let float = try NetworkPlan(spec: spec, options: PlanOptions(cpu: .x86_64(avx512BF16: true)))
        for (layer, floatLayer) in withBF16.convolutionsAfterTheInput(beside: float) {
            let floatFaster = ReducedConvolutionShapes.floatIsFaster(floatLayer.algorithm!, ConvolutionShapes(
                conv: { if case .convolutional(let c) = floatLayer.spec.kind { c } else { fatalError() } }(),
                input: floatLayer.inputShape, output: floatLayer.outputShape), on: .avx512)
            XCTAssertEqual(layer.arithmetic, floatFaster ? .float32 : .bfloat16, "layer \(layer.index): float32 takes \(floatLayer.algorithm!)")
            if floatFaster { XCTAssertEqual(layer.algorithm, floatLayer.algorithm) }
        }
        // float32's sliding window (layer 2, 208x208 16 -> 32) loses to bfloat16 once the input is paired.
        let slidingWindow = withBF16.slidingWindowLayers(beside: float)
        XCTAssertFalse(slidingWindow.isEmpty, "float32 takes its sliding window after the input's convolution")
        XCTAssertTrue(slidingWindow.allSatisfy { $0.arithmetic == .bfloat16 }, "\(slidingWindow.map(\.index))")
        let reduced = convolutions.filter { $0.arithmetic == .bfloat16 }
        XCTAssertGreaterThanOrEqual(reduced.count, 9, "the 1x1, the 13x13 and 26x26 and the sliding window's convolutions")
        XCTAssertTrue(reduced.allSatisfy { $0.reducedKernels == .avx512 })
        XCTAssertEqual(reduced.filter { $0.algorithm == .bfloat16WinogradF23 }.map(\.index), Self.thirteenBy13,
                       "F(2x2, 3x3) for the 3x3 layers under 20x20")
        XCTAssertEqual(reduced.filter { $0.algorithm == .bfloat16WinogradF33 }.map(\.index), Self.twentySixBy26,
                       "F(3x3, 3x3) for those from 20x20 reading 128 channels or more")
        XCTAssertTrue(reduced.allSatisfy { [.bfloat16GEMM, .bfloat16WinogradF23, .bfloat16WinogradF33].contains($0.algorithm) })
        XCTAssertEqual(withBF16.layers[4].arithmetic, .float32, "104x104 from 32 channels: float32's Winograd")
        XCTAssertEqual(withBF16.layers[6].arithmetic, .float32, "52x52 from 64 channels: float32's Winograd")
        // F(3x3, 3x3) from 64 channels where the tuning says so: the 52x52 layer too.
        var f33From64 = PlanOptions(precision: .bfloat16, cpu: .x86_64(avx512BF16: true))
        f33From64.tuning.bfloat16WinogradF33Channels = 64
        let withF33 = try NetworkPlan(spec: spec, options: f33From64)
        XCTAssertEqual(withF33.layers.filter { $0.algorithm == .bfloat16WinogradF33 }.map(\.index), Self.fiftyTwoBy52 + Self.twentySixBy26)
        let without = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: .x86_64(avx512VNNI: true)))
        XCTAssertTrue(without.layers.filter { $0.algorithm != nil }.allSatisfy { $0.arithmetic == .float32 })
        XCTAssertTrue(without.layers.contains { $0.arithmeticReason == "bfloat16 precision, but the CPU has no bfloat16 products" })
        XCTAssertEqual(float.layers.map(\.algorithm), without.layers.map(\.algorithm), "float32 plans ignore bfloat16 kernels")
        XCTAssertEqual(Precision.fastestUncalibrated(on: .x86_64(avx512BF16: true)), .bfloat16)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .x86_64(avx512VNNI: true)), .float32)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true, fp16: true, bf16: true)), .bfloat16)
        XCTAssertEqual(Precision.fastestUncalibrated(on: .arm64(dotProduct: true, fp16: true)), .float16, "no BF16: float16")
        let arm = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16, cpu: .arm64(dotProduct: true, bf16: true)))
        let armReduced = arm.layers.filter { $0.arithmetic == .bfloat16 }
        XCTAssertGreaterThanOrEqual(armReduced.count, 6, "arm64 with BF16")
        XCTAssertTrue(armReduced.allSatisfy { $0.reducedKernels == .bfmmla }, "BFMMLA where the CPU has BF16")
        XCTAssertEqual(armReduced.filter { $0.algorithm == .bfloat16WinogradF23 }.map(\.index), Self.thirteenBy13,
                       "BFDOT's arithmetic: F(2x2, 3x3) up to 256 positions, the GEMM's limit")
        XCTAssertTrue(arm.layers.filter { (Self.twentySixBy26 + Self.fiftyTwoBy52).contains($0.index) }
            .allSatisfy { $0.arithmetic == .float32 }, "BFDOT's arithmetic: float32's Winograd over 26x26 and 52x52")
    }

    /// YOLOv3-tiny's 3x3 layers over 13x13 outputs (x86-64's and arm64's F(2x2, 3x3)).
    static let thirteenBy13 = [10, 12, 14]
    /// Its 3x3 layers over 26x26 outputs, from 128 and 384 channels (x86-64's F(3x3, 3x3); arm64
    /// keeps float32's Winograd).
    static let twentySixBy26 = [8, 21]
    /// Its 3x3 layer over a 52x52 output (64 -> 128: float32's Winograd, or x86-64's F(3x3, 3x3)
    /// where the tuning takes it from 64 channels).
    static let fiftyTwoBy52 = [6]

    /// The portable set the CPU's SIMD set emulates (VDPBF16PS's or BFDOT's arithmetic in C) and
    /// that SIMD set give every layer the same bits, on one thread and on two.
    func testSIMDAndThreadsGiveThePortableBits() throws {
        try ReducedPrecisionChecks.simdAndThreadsGiveThePortableBits(.bfloat16, portable: .portable, label: "BFloat16NetworkTests")
    }

    /// bfloat16 keeps at least 99 % of float32's detections (same class, IoU >= 0.9) and adds at
    /// most 1 %, at thresholds 0.25 and 0.5, on 26 images; each layer's largest difference from
    /// float32 on dog.jpg is printed.
    func testTinyBFloat16KeepsFloatDetections() throws {
        try ReducedPrecisionChecks.keepsFloatDetections(.bfloat16, kernels: CPUFeatures.current.reducedKernels(for: .bfloat16) ?? .portable, label: "bf16")
    }

    /// The same with bfloat16's F(3x3, 3x3) on the 52x52 layer too (64 -> 128; the plan takes it
    /// from 128 channels: there the 26x26 layers, and YOLOv3's 52x52 ones, which have no real
    /// weights here), through the CPU's set or the portable one.
    func testTinyBFloat16WithF33KeepsFloatDetections() throws {
        var tuning = ConvolutionTuning()
        tuning.bfloat16WinogradF33Channels = 64
        let network = try ReducedPrecisionChecks.keepsFloatDetections(
            .bfloat16, kernels: CPUFeatures.current.reducedKernels(for: .bfloat16) ?? .portable, label: "bf16 with F(3x3, 3x3)",
            tuning: tuning)
        XCTAssertEqual(network.plan.layers.filter { $0.algorithm == .bfloat16WinogradF33 }.map(\.index),
                       Self.fiftyTwoBy52 + Self.twentySixBy26)
    }

    /// The same for arm64's BFDOT arithmetic (round to odd), through its portable set: the bits
    /// the BFDOT and BFMMLA sets give (`BFloat16KernelTests` and `testSIMDAndThreadsGiveThePortableBits`
    /// under qemu show they are equal). On the 13 photos without their mirror images: the
    /// portable set is scalar C emulating each rounding (about 11 s a forward on one core); the 26
    /// images kept all 54 and 35 float32 detections and added none.
    func testTinyARMBFloat16KeepsFloatDetections() throws {
        try ReducedPrecisionChecks.keepsFloatDetections(.bfloat16, kernels: .portableARM, label: "bf16 (arm64 BFDOT arithmetic)",
                                                        mirrored: false)
    }
}
