@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The two direct integer convolutions, each in every variant this CPU runs, at 1 thread and
/// at 2 threads in the finest pieces, and where the planner takes them:
/// - 8-bit (`Int8Direct`, `.int8Direct`) against the im2col one (`Int8Convolution`): the same
///   float and 8-bit outputs, bit for bit;
/// - 16-bit activations and weights (`Int16Direct`, `.int16Direct`) against plain Swift loops
///   over its integers: exactly their float outputs.
final class IntegerDirectTests: XCTestCase {
    private struct Case {
        let channels, height, width, filters, size, padding: Int
        let activation: Activation
        /// The kernels that take it: 8-bit, 16-bit or both.
        let bits: Set<Int>
        /// 1, or 2 (the layout's four phases).
        var stride = 1
    }

    /// Widths that are and are not multiples of 16 (so a strip of 16 columns meets one output row
    /// or several, down to one column per row), more than one group of panels (K = 2304 over a
    /// 24x24 output: B over 1 MiB; a 13x13 one takes all of B at once), an odd channel count (a
    /// last 16-bit pair with one channel), K large enough to lower the 16-bit code limit, 5x5 and
    /// unpadded windows, a padded 1x1, filters not a multiple of 8, the scalar (mish) epilogue,
    /// and at stride 2 padded sides both even and odd, outputs wider than 16, 1x1 and 5x5 windows.
    private static let cases: [Case] = [
        Case(channels: 8, height: 13, width: 13, filters: 20, size: 3, padding: 1, activation: .leaky, bits: [8]),
        Case(channels: 16, height: 7, width: 21, filters: 9, size: 3, padding: 1, activation: .mish, bits: [8]),
        Case(channels: 16, height: 13, width: 20, filters: 20, size: 3, padding: 1, activation: .leaky, bits: [16]),
        Case(channels: 5, height: 7, width: 21, filters: 9, size: 3, padding: 1, activation: .mish, bits: [16]),
        Case(channels: 4, height: 5, width: 6, filters: 8, size: 5, padding: 2, activation: .linear, bits: [8, 16]),
        Case(channels: 12, height: 9, width: 10, filters: 17, size: 3, padding: 0, activation: .relu, bits: [8, 16]),
        Case(channels: 8, height: 6, width: 6, filters: 8, size: 1, padding: 1, activation: .leaky, bits: [8]),
        Case(channels: 256, height: 13, width: 13, filters: 24, size: 3, padding: 1, activation: .leaky, bits: [8]),
        Case(channels: 32, height: 32, width: 16, filters: 16, size: 3, padding: 1, activation: .logistic, bits: [8]),
        Case(channels: 128, height: 6, width: 18, filters: 24, size: 3, padding: 1, activation: .leaky, bits: [16]),
        Case(channels: 8, height: 19, width: 3, filters: 8, size: 3, padding: 0, activation: .leaky, bits: [8, 16]),
        Case(channels: 256, height: 24, width: 24, filters: 16, size: 3, padding: 1, activation: .leaky, bits: [8, 16]),
        Case(channels: 8, height: 13, width: 13, filters: 20, size: 3, padding: 1, activation: .leaky, bits: [8], stride: 2),
        Case(channels: 12, height: 40, width: 38, filters: 9, size: 3, padding: 1, activation: .mish, bits: [8], stride: 2),
        Case(channels: 64, height: 52, width: 52, filters: 16, size: 3, padding: 1, activation: .leaky, bits: [8], stride: 2),
        Case(channels: 4, height: 10, width: 80, filters: 8, size: 3, padding: 1, activation: .relu, bits: [8], stride: 2),
        Case(channels: 8, height: 11, width: 36, filters: 8, size: 3, padding: 0, activation: .relu, bits: [8], stride: 2),
        Case(channels: 4, height: 9, width: 11, filters: 8, size: 5, padding: 2, activation: .linear, bits: [8, 16], stride: 2),
        Case(channels: 4, height: 9, width: 10, filters: 8, size: 1, padding: 0, activation: .linear, bits: [8, 16], stride: 2),
        Case(channels: 32, height: 41, width: 300, filters: 16, size: 3, padding: 1, activation: .leaky, bits: [16], stride: 2),
        Case(channels: 6, height: 12, width: 33, filters: 9, size: 3, padding: 0, activation: .mish, bits: [16], stride: 2),
    ]

    /// The cases of the `bits`-bit kernel, in table order (the order their seeds follow).
    private static func cases(bits: Int) -> [Case] { cases.filter { $0.bits.contains(bits) } }

    private static let one = ThreadSplit(threads: 1), two = ThreadSplit(threads: 2, finestPieces: true)

    /// Every integer variant this CPU runs, each at 1 thread and at 2 in the finest pieces.
    private static var variantsAndSplits: [(IntegerKernels, ThreadSplit)] {
        CPUFeatures.current.supportedIntegerKernels.flatMap { variant in [(variant, one), (variant, two)] }
    }

    // MARK: 8 bits

    func testInt8DirectGivesTheIm2colOutputsInEveryVariantAndThreadCount() {
        for (index, item) in Self.cases(bits: 8).enumerated() {
            var random = SplitMix64(seed: UInt64(900 + index))
            let im2col = Int8Convolution(channels: item.channels, height: item.height, width: item.width,
                                         filters: item.filters, size: item.size, padding: item.padding, stride: item.stride)
            let direct = Int8Direct(channels: item.channels, height: item.height, width: item.width,
                                    filters: item.filters, size: item.size, padding: item.padding, stride: item.stride)
            XCTAssertEqual(direct.outputHeight, im2col.outputHeight)
            XCTAssertEqual(direct.outputWidth, im2col.outputWidth)
            let count = item.filters * im2col.columns
            let input = (0..<item.channels * item.height * item.width).map { _ in random.nextFloat(in: -0.5...3) }
            let weights = (0..<item.filters * im2col.depth).map { _ in random.nextFloat(in: -0.2...0.2) }
            let bias = (0..<item.filters).map { _ in random.nextFloat(in: -0.5...0.5) }
            let quantization = Int8TensorQuantization(minimum: input.min()!, maximum: input.max()!)
            let codes = quantization.quantize(input)
            let outputQuantization = Int8TensorQuantization(minimum: -0.5, maximum: 2)
            func epilogue(_ packed: Int8PackedWeights) -> Int8Epilogue {
                Int8Epilogue(requantization: packed.requantization(input: quantization), bias: bias, activation: item.activation)
            }
            let limit = IntegerKernels.native.plannedWeightLimit(depth: im2col.depth)
            let im2colWeights = Int8PackedWeights(weights: weights, rows: item.filters, depth: im2col.depth, limit: limit)
            let directWeights = Int8PackedWeights(weights: reordered(weights, by: direct.reorder), rows: item.filters,
                                                  depth: direct.depth, limit: limit)
            XCTAssertEqual(directWeights.scales, im2colWeights.scales, "case \(index): reordering changed the scales")
            XCTAssertEqual(directWeights.rowSums, im2colWeights.rowSums, "case \(index): reordering changed the row sums")

            var workspace = [UInt8](repeating: 0, count: im2col.workspaceBytes)
            var expectedFloats = [Float](repeating: .nan, count: count), expectedCodes = [UInt8](repeating: 0, count: count)
            codes.withUnsafeBufferPointer { x in
                workspace.withUnsafeMutableBufferPointer { ws in
                    expectedFloats.withUnsafeMutableBufferPointer {
                        im2col.run(input: x.baseAddress!, quantization: quantization, weights: im2colWeights,
                                   epilogue: epilogue(im2colWeights), output: $0.baseAddress!, workspace: ws.baseAddress!,
                                   split: Self.one, kernels: .portable)
                    }
                    expectedCodes.withUnsafeMutableBufferPointer {
                        im2col.run(input: x.baseAddress!, quantization: quantization, weights: im2colWeights,
                                   epilogue: epilogue(im2colWeights), output: $0.baseAddress!,
                                   outputQuantization: outputQuantization, workspace: ws.baseAddress!, split: Self.one,
                                   kernels: .portable)
                    }
                }
            }
            XCTAssertFalse(expectedFloats.contains { $0.isNaN }, "case \(index): the im2col path left outputs unwritten")

            let panelStride = (direct.panelBytes + 63) / 64 * 64
            var layout = [UInt8](repeating: 0xAA, count: direct.layoutBytes)
            var panels = [UInt8](repeating: 0xAA, count: panelStride * 2)
            for (variant, split) in Self.variantsAndSplits {
                var floats = [Float](repeating: .nan, count: count), bytes = [UInt8](repeating: 0xAA, count: count)
                codes.withUnsafeBufferPointer { x in
                    layout.withUnsafeMutableBufferPointer { l in
                        panels.withUnsafeMutableBytes { p in
                            floats.withUnsafeMutableBufferPointer {
                                direct.run(input: x.baseAddress!, quantization: quantization, weights: directWeights,
                                           epilogue: epilogue(directWeights), output: $0.baseAddress!,
                                           layout: l.baseAddress!, panels: p.baseAddress!, panelStride: panelStride,
                                           split: split, kernels: variant)
                            }
                            bytes.withUnsafeMutableBufferPointer {
                                direct.run(input: x.baseAddress!, quantization: quantization, weights: directWeights,
                                           epilogue: epilogue(directWeights), output: $0.baseAddress!,
                                           outputQuantization: outputQuantization, layout: l.baseAddress!,
                                           panels: p.baseAddress!, panelStride: panelStride, split: split,
                                           kernels: variant)
                            }
                        }
                    }
                }
                let label = "case \(index), \(variant), \(split.threads) thread(s)"
                let floatMismatches = zip(floats, expectedFloats).offsets { $0.bitPattern != $1.bitPattern }
                XCTAssertEqual(floatMismatches.count, 0, "\(label): float outputs differ, first at \(floatMismatches.first ?? -1)")
                let codeMismatches = zip(bytes, expectedCodes).offsets { $0 != $1 }
                XCTAssertEqual(codeMismatches.count, 0, "\(label): 8-bit outputs differ, first at \(codeMismatches.first ?? -1)")
            }
        }
    }

    /// The reordering puts weight (filter, channel, row, column) at
    /// `((channel / 4 * size + row) * size + column) * 4 + channel % 4` and zeros where a last
    /// quad lacks channels.
    func testInt8ReorderedWeightsFollowTheQuadOrder() {
        let direct = Int8Direct(channels: 6, height: 4, width: 4, filters: 2, size: 3, padding: 1)
        XCTAssertEqual(direct.depth, 8 * 9)
        let weights = (0..<2 * 6 * 9).map(Float.init)
        let quads = reordered(weights, by: direct.reorder)
        for filter in 0..<2 {
            for channel in 0..<8 {
                for offset in 0..<9 {
                    let value = quads[filter * 72 + ((channel / 4) * 9 + offset) * 4 + channel % 4]
                    XCTAssertEqual(value, channel < 6 ? weights[filter * 54 + channel * 9 + offset] : 0,
                                   "filter \(filter), channel \(channel), offset \(offset)")
                }
            }
        }
    }

    /// Which int8 convolutions the planner takes the direct path for: stride 1 with a window over
    /// whole quads of channels, at any output width (it computes only the output's own columns),
    /// and stride 2; 1x1 unpadded at stride 1 and 3-channel inputs stay on im2col.
    func testInt8DirectSuitsStrideOneWindowsOverWholeChannelQuads() {
        func direct(size: Int, stride: Int, padding: Int, channels: Int, outputWidth: Int) -> Bool {
            let width = (outputWidth - 1) * stride + size - 2 * padding
            let conv = ConvolutionalSpec(filters: 8, size: size, stride: stride, padding: padding, batchNormalize: false,
                                         activation: .leaky)
            let candidate = ConvolutionCandidate(
                shapes: ConvolutionShapes(conv: conv, input: TensorShape(channels: channels, height: width, width: width),
                                          output: TensorShape(channels: 8, height: outputWidth, width: outputWidth)),
                cpu: .current, integer: Int8LayerQuantization(input: Int8TensorQuantization(minimum: 0, maximum: 1),
                                                              variant: .portable))
            return type(of: ConvolutionChoice.plan(candidate)).algorithm == .int8Direct
        }
        XCTAssertTrue(direct(size: 3, stride: 1, padding: 1, channels: 16, outputWidth: 26))
        XCTAssertTrue(direct(size: 3, stride: 1, padding: 1, channels: 16, outputWidth: 16))
        XCTAssertTrue(direct(size: 1, stride: 1, padding: 1, channels: 8, outputWidth: 8))
        XCTAssertTrue(direct(size: 3, stride: 1, padding: 1, channels: 16, outputWidth: 13))
        XCTAssertTrue(direct(size: 3, stride: 1, padding: 1, channels: 16, outputWidth: 1))
        XCTAssertTrue(Int8Direct.computes(size: 3, stride: 1, padding: 1, channels: 16))
        XCTAssertTrue(direct(size: 3, stride: 2, padding: 1, channels: 16, outputWidth: 26))
        XCTAssertFalse(direct(size: 3, stride: 2, padding: 1, channels: 18, outputWidth: 26))
        XCTAssertFalse(direct(size: 1, stride: 1, padding: 0, channels: 16, outputWidth: 26))
        XCTAssertFalse(direct(size: 3, stride: 1, padding: 1, channels: 3, outputWidth: 416))
    }

    /// The planner's int8 choice on YOLOv3-tiny: `.int8Direct` for its 3x3 layers over whole
    /// channel quads, `.int8Im2col` for the first (3 channels) and the 1x1 ones; `.im2colOnly`
    /// keeps im2col.
    func testPlannerPicksDirectForWideStrideOneInt8Layers() throws {
        let tiny = try TinyInt8Plans()
        let fastest = try tiny.algorithms(floatLayers: .none).filter { $0.value.isInt8 }
        XCTAssertEqual(Set(fastest.filter { $0.value == .int8Direct }.keys), [2, 4, 6, 8, 10, 12, 14, 21])
        XCTAssertEqual(Set(fastest.filter { $0.value == .int8Im2col }.keys), [0, 13, 15, 18, 22])
        XCTAssertEqual(Set(try tiny.algorithms(floatLayers: .none, .im2colOnly).values.filter(\.isInt8)), [.int8Im2col])
    }

    // MARK: 16 bits

    func testInt16OutputsAreTheIntegerConvolutionInEveryVariantAndThreadCount() {
        for (index, item) in Self.cases(bits: 16).enumerated() {
            var random = SplitMix64(seed: UInt64(1600 + index))
            let core = Int16Direct(channels: item.channels, height: item.height, width: item.width,
                                   filters: item.filters, size: item.size, padding: item.padding, stride: item.stride)
            let area = item.size * item.size, rowLength = item.channels * area
            var input = (0..<item.channels * item.height * item.width).map { _ in random.nextFloat(in: -0.7...4) }
            input[3] = .nan  // quantized to 0
            input[5] = 1e9  // saturates at the limit
            let weights = (0..<item.filters * rowLength).map { _ in random.nextFloat(in: -0.2...0.2) }
            let bias = (0..<item.filters).map { _ in random.nextFloat(in: -0.5...0.5) }
            let limit = Int16Quantization.limit(depth: core.depth)
            let quantization = Int16Quantization(magnitude: 4, limit: limit)
            let packed = Int16PackedWeights(weights: reordered(weights, by: core.reorder), rows: item.filters, depth: core.depth)
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
                                    let y = oy * item.stride + ky - item.padding, x = ox * item.stride + kx - item.padding
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
            Self.activate(&expected, item.activation)

            var layout = [UInt8](repeating: 0xEE, count: core.layoutBytes)
            var panels = [UInt8](repeating: 0, count: 2 * core.panelBytes)
            func run(_ variant: IntegerKernels, _ split: ThreadSplit, layout vectorKernels: VectorKernels = .native) -> [Float] {
                var output = [Float](repeating: .nan, count: expected.count)
                input.withUnsafeBufferPointer { x in
                    layout.withUnsafeMutableBufferPointer { l in
                        panels.withUnsafeMutableBytes { p in
                            output.withUnsafeMutableBufferPointer {
                                core.run(input: x.baseAddress!, quantization: quantization, weights: packed, epilogue: epilogue,
                                         output: $0.baseAddress!, layout: l.baseAddress!, panels: p.baseAddress!,
                                         panelStride: core.panelBytes, split: split, kernels: variant,
                                         vectorKernels: vectorKernels)
                            }
                        }
                    }
                }
                return output
            }
            let portable = run(.portable, Self.one, layout: .portable)
            if item.activation == .mish {
                // The scalar activation's libm rounding: within a few ulps of the reference.
                for (a, b) in zip(portable, expected) { XCTAssertEqual(a, b, accuracy: 1e-5 * max(1, abs(b)), "case \(index)") }
            } else {
                XCTAssertTrue(portable.map(\.bitPattern) == expected.map(\.bitPattern), "case \(index): portable differs from the integers")
            }
            for (variant, split) in Self.variantsAndSplits {
                XCTAssertTrue(run(variant, split).map(\.bitPattern) == portable.map(\.bitPattern),
                              "case \(index): \(variant) at \(split.threads) thread(s) differs from portable")
            }
        }
    }

    /// The activations the 16-bit cases use, in plain Swift.
    private static func activate(_ values: inout [Float], _ activation: Activation) {
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
    /// and its heads 15 and 22 (1x1) with 16-bit activations and keeps layer 0 in float; without
    /// `sixteenBitEarlyLayers` 2 and 4 are float too, without `sixteenBitHeads` 15 and 22, and
    /// `.im2colOnly` keeps all four float.
    /// Planned as an AVX2 CPU without VNNI, the default runs only the convolutions with K >= 2304
    /// in integers (10, 12, 14 and 21), in 8 bits with 7-bit weights, and so does `.floatEarly`
    /// (it differs from the default only in the 16-bit layers, which that rule keeps float), and
    /// so does an arm64 CPU without SDOT (NEON set), with 8-bit weights; as an AVX-512 VNNI CPU or
    /// an arm64 one with SDOT or I8MM the early layers and the heads in 16 bits and the deep ones in 8.
    func testDefaultPlanRunsTheEarlyLayersWithSixteenBits() throws {
        let tiny = try TinyInt8Plans()
        let withoutVNNI = CPUFeatures.x86_64(), avx512VNNI = CPUFeatures.x86_64(avx512VNNI: true)
        func algorithms(_ floatLayers: Int8FloatLayers, _ strategy: ConvolutionStrategy = .fastest,
                        cpu: CPUFeatures = .x86_64(avx512VNNI: true)) throws -> [Int: ConvolutionAlgorithm] {
            let plan = try tiny.plan(floatLayers: floatLayers, strategy, cpu: cpu)
            for layer in plan.layers {
                guard let int8 = layer.int8, case .convolutional(let conv) = layer.spec.kind else { continue }
                XCTAssertEqual(int8.variant, cpu.integerKernels, "layer \(layer.index)")
                let deep = layer.inputShape.channels * conv.size * conv.size >= IntegerKernels.narrowDepth
                XCTAssertEqual(int8.weightLimit, cpu.integerKernels == .avx2 && deep ? IntegerKernels.narrowLimit : 127,
                               "layer \(layer.index) on \(cpu)")
            }
            XCTAssertTrue(plan.int8CodeOutputs.allSatisfy { plan.layers[$0].algorithm != .int16Direct && plan.layers[$0 + 1].algorithm != .int16Direct })
            return TinyInt8Plans.algorithms(plan)
        }
        let withVNNI = Int8FloatLayers(minimumInputChannels: 64, heads: true, sixteenBitEarlyLayers: true,
                                       sixteenBitHeads: true)
        // Only x86-64 builds have the AVX2 kernels, whose lack of a dot product keeps the narrow
        // layers in float: planned by an aarch64 build, an AVX2 CPU gets the portable kernels.
        XCTAssertEqual(withoutVNNI.int8WithoutDotProduct, CPUFeatures.compiledArchitecture == .x86_64)
        // Likewise arm64's NEON set (smlal, no SDOT), in aarch64 builds only; with SDOT or I8MM,
        // the early layers run in 16 bits and the deep ones in 8.
        XCTAssertEqual(CPUFeatures.arm64().int8WithoutDotProduct, CPUFeatures.compiledArchitecture == .arm64)
        XCTAssertFalse(CPUFeatures.arm64(dotProduct: true).int8WithoutDotProduct)
        XCTAssertFalse(CPUFeatures.arm64(dotProduct: true, i8mm: true).int8WithoutDotProduct)
        for cpu in [withoutVNNI, avx512VNNI, .arm64(), .arm64(dotProduct: true), .arm64(dotProduct: true, i8mm: true)] {
            let defaultInt8 = try algorithms(.default, cpu: cpu).filter { $0.value.isInt8 }
            XCTAssertEqual(Set(defaultInt8.keys), cpu.int8WithoutDotProduct ? [10, 12, 14, 21] : [2, 4, 6, 8, 10, 12, 13, 14, 15, 18, 21, 22], "\(cpu)")
            let floatEarlyInt8 = try algorithms(.floatEarly, cpu: cpu).filter { $0.value.isInt8 }
            XCTAssertEqual(Set(floatEarlyInt8.keys), cpu.int8WithoutDotProduct ? [10, 12, 14, 21] : [6, 8, 10, 12, 13, 14, 18, 21], "\(cpu)")
        }
        let plan = try algorithms(withVNNI)
        XCTAssertEqual(Set(plan.filter { $0.value == .int16Direct }.keys), [2, 4, 15, 22])
        XCTAssertEqual(Set(plan.filter { $0.value.isInt8 }.keys), [2, 4, 6, 8, 10, 12, 13, 14, 15, 18, 21, 22])
        XCTAssertFalse(plan[0]!.isInt8)
        let floatHeads = try algorithms(Int8FloatLayers(minimumInputChannels: 64, heads: true, sixteenBitEarlyLayers: true))
        XCTAssertEqual(Set(floatHeads.filter { $0.value == .int16Direct }.keys), [2, 4])
        XCTAssertFalse(floatHeads[15]!.isInt8)
        XCTAssertFalse(floatHeads[22]!.isInt8)
        let eightBitOnly = try algorithms(Int8FloatLayers(minimumInputChannels: 64, heads: true))
        XCTAssertEqual(Set(eightBitOnly.filter { $0.value.isInt8 }.keys), [6, 8, 10, 12, 13, 14, 18, 21])
        XCTAssertFalse(try algorithms(withVNNI, .im2colOnly).values.contains(.int16Direct))
    }

    /// Planned for a CPU with bfloat16 products (x86-64 AVX512_BF16, arm64 BF16), the default
    /// runs the layers it keeps from 8 bits (2, 4, 15 and 22) in bfloat16, on the bfloat16 GEMM,
    /// and the rest as without them; the layer reading the network input stays float32. With
    /// `.floatEarly`, which keeps the early layers float, not 16-bit, they stay float32.
    func testDefaultPlanRunsTheRemainderInBFloat16WhereTheCPUMultipliesIt() throws {
        let tiny = try TinyInt8Plans()
        for cpu in [CPUFeatures.x86_64(avx512VNNI: true, avx512BF16: true), .arm64(dotProduct: true, i8mm: true, bf16: true)] {
            let plan = try tiny.plan(floatLayers: .default, cpu: cpu)
            let algorithms = TinyInt8Plans.algorithms(plan)
            XCTAssertEqual(Set(algorithms.filter { $0.value == .bfloat16GEMM }.keys), [2, 4, 15, 22], "\(cpu)")
            XCTAssertEqual(Set(algorithms.filter { $0.value.isInt8 }.keys), [6, 8, 10, 12, 13, 14, 18, 21], "\(cpu)")
            XCTAssertEqual(plan.layers[0].arithmetic, .float32, "\(cpu)")
            XCTAssertEqual(plan.layers[2].arithmeticReason, "int8 precision keeps it from 8 bits, in bfloat16 (the CPU multiplies bfloat16)")
            XCTAssertEqual(plan.layers[2].reducedKernels, cpu.reducedKernels(for: .bfloat16), "\(cpu)")
            let floatEarly = TinyInt8Plans.algorithms(try tiny.plan(floatLayers: .floatEarly, cpu: cpu))
            XCTAssertEqual(Set(floatEarly.filter { $0.value.arithmetic == .bfloat16 }.keys), [], "\(cpu)")
        }
    }
}

/// YOLOv3-tiny's cfg planned in int8 with a calibration that gives every convolution's input
/// the range -0.5...4: the plans whose algorithm choices the tests above check.
private struct TinyInt8Plans {
    let spec: NetworkSpec
    let calibration: Int8Calibration

    init() throws {
        spec = try NetworkSpec.parse(contentsOf: TestPaths.require(TestPaths.tinyCfg))
        let float = try NetworkPlan(spec: spec)
        calibration = Int8Calibration(
            cfg: "yolov3-tiny.cfg", inputShape: float.inputShape, imageCount: 1,
            layers: float.layers.filter { if case .convolutional = $0.spec.kind { true } else { false } }
                .map { Int8Calibration.Layer(layer: $0.index, input: $0.inputShape, minimum: -0.5, maximum: 4) })
    }

    /// The plan with these float layers and strategy, for `cpu` (this machine's by default).
    func plan(floatLayers: Int8FloatLayers, _ strategy: ConvolutionStrategy = .fastest, cpu: CPUFeatures? = nil) throws -> NetworkPlan {
        var options = cpu.map { PlanOptions(precision: .int8(calibration, floatLayers: floatLayers), cpu: $0) }
            ?? PlanOptions(precision: .int8(calibration, floatLayers: floatLayers))
        options.convolutionStrategy = strategy
        return try NetworkPlan(spec: spec, options: options)
    }

    /// The algorithm of every layer that has one, by layer index.
    func algorithms(floatLayers: Int8FloatLayers, _ strategy: ConvolutionStrategy = .fastest) throws -> [Int: ConvolutionAlgorithm] {
        Self.algorithms(try plan(floatLayers: floatLayers, strategy))
    }

    static func algorithms(_ plan: NetworkPlan) -> [Int: ConvolutionAlgorithm] {
        Dictionary(uniqueKeysWithValues: plan.layers.compactMap { layer in layer.algorithm.map { (layer.index, $0) } })
    }
}

private extension Zip2Sequence {
    /// Offsets of the pairs where `differ` holds.
    func offsets(_ differ: (Sequence1.Element, Sequence2.Element) -> Bool) -> [Int] {
        enumerated().filter { differ($0.element.0, $0.element.1) }.map(\.offset)
    }
}

/// `weights` after a direct path's in-place reorder.
private func reordered(_ weights: [Float], by reorder: (inout [Float]) -> Void) -> [Float] {
    var copy = weights
    reorder(&copy)
    return copy
}
