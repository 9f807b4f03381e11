@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The direct convolution with 16-bit activations and weights (`Int16Direct`, `.int16Direct`)
/// against plain Swift loops over its integers: exactly their float outputs in
/// every variant this CPU runs, at 1 thread and at 2 threads in the finest pieces; and where
/// the default int8 plan of YOLOv3-tiny uses it.
final class Int16DirectTests: XCTestCase {
    private struct Case {
        let channels, height, width, filters, size, padding: Int
        let activation: Activation
    }

    /// Widths that are and are not multiples of 16 (so tiles cross output rows), an odd channel
    /// count (a last pair with one channel), K large enough to lower the code limit, 5x5 and
    /// unpadded windows, filters not a multiple of 8, and the scalar (mish) epilogue.
    private let cases: [Case] = [
        Case(channels: 16, height: 13, width: 20, filters: 20, size: 3, padding: 1, activation: .leaky),
        Case(channels: 5, height: 7, width: 21, filters: 9, size: 3, padding: 1, activation: .mish),
        Case(channels: 4, height: 5, width: 6, filters: 8, size: 5, padding: 2, activation: .linear),
        Case(channels: 12, height: 9, width: 10, filters: 17, size: 3, padding: 0, activation: .relu),
        Case(channels: 128, height: 6, width: 18, filters: 24, size: 3, padding: 1, activation: .leaky),
    ]

    func testOutputsAreTheIntegerConvolutionInEveryVariantAndThreadCount() {
        let one = ThreadSplit(threads: 1), two = ThreadSplit(threads: 2, finestPieces: true)
        for (index, item) in cases.enumerated() {
            var random = SplitMix64(seed: UInt64(1600 + index))
            let core = Int16Direct(channels: item.channels, height: item.height, width: item.width,
                                   filters: item.filters, size: item.size, padding: item.padding)
            let area = item.size * item.size, rowLength = item.channels * area
            var input = (0..<item.channels * item.height * item.width).map { _ in random.nextFloat(in: -0.7...4) }
            input[3] = .nan  // quantized to 0
            input[5] = 1e9  // saturates at the limit
            let weights = (0..<item.filters * rowLength).map { _ in random.nextFloat(in: -0.2...0.2) }
            let bias = (0..<item.filters).map { _ in random.nextFloat(in: -0.5...0.5) }
            let limit = Int16Quantization.limit(depth: core.depth)
            let quantization = Int16Quantization(magnitude: 4, limit: limit)
            let packed = Int16PackedWeights(weights: core.reordered(weights), rows: item.filters, depth: core.depth)
            let epilogue = Int8Epilogue(requantization: packed.requantization(input: quantization), bias: bias,
                                        activation: item.activation)

            // The reference: codes and int8 weights in Darknet's order, sums in Int64.
            let codes = input.map { x -> Int64 in
                var v = x * quantization.inverseScale
                if v.isNaN { v = 0 }
                v = min(max(v, -Float(limit)), Float(limit))
                return Int64(v.rounded(.toNearestOrEven))
            }
            let rows = Int16PackedWeights.quantizeRows(weights, rows: item.filters, columns: rowLength, limit: limit)
            XCTAssertEqual(rows.scales, packed.scales, "case \(index): reordering changed the scales")
            var expected = [Float](repeating: 0, count: item.filters * core.outputHeight * core.outputWidth)
            for f in 0..<item.filters {
                for oy in 0..<core.outputHeight {
                    for ox in 0..<core.outputWidth {
                        var sum: Int64 = 0
                        for c in 0..<item.channels {
                            for ky in 0..<item.size {
                                for kx in 0..<item.size {
                                    let y = oy + ky - item.padding, x = ox + kx - item.padding
                                    guard y >= 0, y < item.height, x >= 0, x < item.width else { continue }
                                    let w = Int64(rows.values[f * rowLength + c * area + ky * item.size + kx])
                                    sum += w * codes[(c * item.height + y) * item.width + x]
                                }
                            }
                        }
                        XCTAssertLessThan(abs(sum), Int64(Int32.max))
                        let scale = packed.scales[f] * quantization.scale
                        var value = Float(sum) * scale
                        value = value + bias[f]
                        expected[(f * core.outputHeight + oy) * core.outputWidth + ox] = value
                    }
                }
            }
            activate(&expected, item.activation)

            var layout = [UInt8](repeating: 0xEE, count: core.layoutBytes)
            var panels = [UInt8](repeating: 0, count: 2 * core.panelBytes)
            func run(_ variant: IntegerKernels, _ split: ThreadSplit) -> [Float] {
                var output = [Float](repeating: .nan, count: expected.count)
                input.withUnsafeBufferPointer { x in
                    layout.withUnsafeMutableBufferPointer { l in
                        panels.withUnsafeMutableBytes { p in
                            output.withUnsafeMutableBufferPointer {
                                core.run(input: x.baseAddress!, quantization: quantization, weights: packed, epilogue: epilogue,
                                         output: $0.baseAddress!, layout: l.baseAddress!, panels: p.baseAddress!,
                                         panelStride: core.panelBytes, split: split, kernels: variant,
                                         vectorKernels: .native)
                            }
                        }
                    }
                }
                return output
            }
            let portable = run(.portable, one)
            if item.activation == .mish {
                // The scalar activation's libm rounding: within a few ulps of the reference.
                for (a, b) in zip(portable, expected) { XCTAssertEqual(a, b, accuracy: 1e-5 * max(1, abs(b)), "case \(index)") }
            } else {
                XCTAssertTrue(portable.map(\.bitPattern) == expected.map(\.bitPattern), "case \(index): portable differs from the integers")
            }
            for variant in CPUFeatures.current.supportedIntegerKernels {
                for split in [one, two] {
                    XCTAssertTrue(run(variant, split).map(\.bitPattern) == portable.map(\.bitPattern),
                                  "case \(index): \(variant) at \(split.threads) thread(s) differs from portable")
                }
            }
        }
    }

    private func activate(_ values: inout [Float], _ activation: Activation) {
        for i in values.indices {
            let x = values[i]
            switch activation {
            case .leaky: values[i] = x > 0 ? x : 0.1 * x
            case .relu: values[i] = x > 0 ? x : 0
            case .mish:
                let softplus = x > 20 ? x : (x < -20 ? exp(x) : log(exp(x) + 1))
                values[i] = x * (2 / (1 + exp(-2 * softplus)) - 1)
            default: break
            }
        }
    }

    /// The default int8 plan of YOLOv3-tiny (on a CPU with VNNI; its choice without the AVX2
    /// rule elsewhere) runs its layers 2 and 4 (16 and 32 channels in, 3x3, 208 and 104 wide)
    /// with 16-bit activations and keeps layer 0 and the heads in float; without
    /// `sixteenBitEarlyLayers` those two are float too, and `.im2colOnly` keeps them float.
    /// Planned as an AVX2 CPU without VNNI, the default runs only the convolutions with K >= 2304
    /// in integers (10, 12, 14 and 21), in 8 bits with 7-bit weights, and so does `.floatEarly`
    /// (it differs from the default only in the 16-bit layers, which that rule keeps float); as
    /// an AVX-512 VNNI CPU (and as an arm64 one, which has no integer kernels of its own yet and
    /// plans the portable ones) the early layers 2 and 4 in 16 bits and the deep ones in 8.
    func testDefaultPlanRunsTheEarlyLayersWithSixteenBits() throws {
        let url = try TestPaths.require(TestPaths.tinyCfg)
        let spec = try NetworkSpec.parse(contentsOf: url)
        let float = try NetworkPlan(spec: spec)
        let calibration = Int8Calibration(
            cfg: "yolov3-tiny.cfg", inputShape: float.inputShape, imageCount: 1,
            layers: float.layers.filter { if case .convolutional = $0.spec.kind { true } else { false } }
                .map { Int8Calibration.Layer(layer: $0.index, input: $0.inputShape, minimum: -0.5, maximum: 4) })
        let withoutVNNI = CPUFeatures.x86_64(), avx512VNNI = CPUFeatures.x86_64(avx512VNNI: true)
        func algorithms(_ floatLayers: Int8FloatLayers, _ strategy: ConvolutionStrategy = .fastest,
                        cpu: CPUFeatures = .x86_64(avx512VNNI: true)) throws -> [Int: ConvolutionAlgorithm] {
            var options = PlanOptions(precision: .int8(calibration, floatLayers: floatLayers), cpu: cpu)
            options.convolutionStrategy = strategy
            let plan = try NetworkPlan(spec: spec, options: options)
            for layer in plan.layers {
                guard let int8 = layer.int8, case .convolutional(let conv) = layer.spec.kind else { continue }
                XCTAssertEqual(int8.variant, cpu.integerKernels, "layer \(layer.index)")
                let deep = layer.inputShape.channels * conv.size * conv.size >= IntegerKernels.narrowDepth
                XCTAssertEqual(int8.weightLimit, cpu.int8WithoutDotProduct && deep ? IntegerKernels.narrowLimit : 127,
                               "layer \(layer.index) on \(cpu)")
            }
            XCTAssertTrue(plan.int8CodeOutputs.allSatisfy { plan.layers[$0].algorithm != .int16Direct && plan.layers[$0 + 1].algorithm != .int16Direct })
            return Dictionary(uniqueKeysWithValues: plan.layers.compactMap { layer in layer.algorithm.map { (layer.index, $0) } })
        }
        let withVNNI = Int8FloatLayers(minimumInputChannels: 64, heads: true, sixteenBitEarlyLayers: true)
        for cpu in [withoutVNNI, avx512VNNI, .arm64(dotProduct: true)] {
            let defaultInt8 = try algorithms(.default, cpu: cpu).filter { $0.value.isInt8 }
            XCTAssertEqual(Set(defaultInt8.keys), cpu == withoutVNNI ? [10, 12, 14, 21] : [2, 4, 6, 8, 10, 12, 13, 14, 18, 21], "\(cpu)")
            let floatEarlyInt8 = try algorithms(.floatEarly, cpu: cpu).filter { $0.value.isInt8 }
            XCTAssertEqual(Set(floatEarlyInt8.keys), cpu == withoutVNNI ? [10, 12, 14, 21] : [6, 8, 10, 12, 13, 14, 18, 21], "\(cpu)")
        }
        let plan = try algorithms(withVNNI)
        XCTAssertEqual(Set(plan.filter { $0.value == .int16Direct }.keys), [2, 4])
        XCTAssertEqual(Set(plan.filter { $0.value.isInt8 }.keys), [2, 4, 6, 8, 10, 12, 13, 14, 18, 21])
        XCTAssertFalse(plan[0]!.isInt8)
        XCTAssertFalse(plan[15]!.isInt8)
        XCTAssertFalse(plan[22]!.isInt8)
        let eightBitOnly = try algorithms(Int8FloatLayers(minimumInputChannels: 64, heads: true))
        XCTAssertEqual(Set(eightBitOnly.filter { $0.value.isInt8 }.keys), [6, 8, 10, 12, 13, 14, 18, 21])
        XCTAssertFalse(try algorithms(withVNNI, .im2colOnly).values.contains(.int16Direct))
    }
}
