@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The direct int8 convolution (`Int8Direct`, `.int8Direct`) against the im2col one
/// (`Int8Convolution`): the same float and 8-bit outputs, bit for bit, in every variant this CPU
/// runs, at 1 thread and at 2 threads in the finest pieces; and the planner's choice of it.
final class Int8DirectTests: XCTestCase {
    private struct Case {
        let channels, height, width, filters, size, padding: Int
        let activation: Activation
    }

    /// Widths that are and are not multiples of 16 (so tiles cross output rows), more than one
    /// group of panels (K = 2304 over 13 rows of 15), 5x5 and unpadded windows, a padded 1x1,
    /// filters not a multiple of 8, and the scalar (mish) epilogue.
    private let cases: [Case] = [
        Case(channels: 8, height: 13, width: 13, filters: 20, size: 3, padding: 1, activation: .leaky),
        Case(channels: 16, height: 7, width: 21, filters: 9, size: 3, padding: 1, activation: .mish),
        Case(channels: 4, height: 5, width: 6, filters: 8, size: 5, padding: 2, activation: .linear),
        Case(channels: 12, height: 9, width: 10, filters: 17, size: 3, padding: 0, activation: .relu),
        Case(channels: 8, height: 6, width: 6, filters: 8, size: 1, padding: 1, activation: .leaky),
        Case(channels: 256, height: 13, width: 13, filters: 24, size: 3, padding: 1, activation: .leaky),
        Case(channels: 32, height: 32, width: 16, filters: 16, size: 3, padding: 1, activation: .logistic),
    ]

    func testDirectGivesTheIm2colOutputsInEveryVariantAndThreadCount() {
        let one = ThreadSplit(threads: 1), two = ThreadSplit(threads: 2, finestPieces: true)
        for (index, item) in cases.enumerated() {
            var random = SplitMix64(seed: UInt64(900 + index))
            let im2col = Int8Convolution(channels: item.channels, height: item.height, width: item.width,
                                         filters: item.filters, size: item.size, stride: 1, padding: item.padding)
            let direct = Int8Direct(channels: item.channels, height: item.height, width: item.width,
                                    filters: item.filters, size: item.size, padding: item.padding)
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
            let directWeights = Int8PackedWeights(weights: direct.reordered(weights), rows: item.filters, depth: direct.depth,
                                                  limit: limit)
            XCTAssertEqual(directWeights.scales, im2colWeights.scales, "case \(index): reordering changed the scales")
            XCTAssertEqual(directWeights.rowSums, im2colWeights.rowSums, "case \(index): reordering changed the row sums")

            var workspace = [UInt8](repeating: 0, count: im2col.workspaceBytes)
            var expectedFloats = [Float](repeating: .nan, count: count), expectedCodes = [UInt8](repeating: 0, count: count)
            codes.withUnsafeBufferPointer { x in
                workspace.withUnsafeMutableBufferPointer { ws in
                    expectedFloats.withUnsafeMutableBufferPointer {
                        im2col.run(input: x.baseAddress!, quantization: quantization, weights: im2colWeights,
                                   epilogue: epilogue(im2colWeights), output: $0.baseAddress!, workspace: ws.baseAddress!,
                                   split: one, kernels: .portable)
                    }
                    expectedCodes.withUnsafeMutableBufferPointer {
                        im2col.run(input: x.baseAddress!, quantization: quantization, weights: im2colWeights,
                                   epilogue: epilogue(im2colWeights), output: $0.baseAddress!,
                                   outputQuantization: outputQuantization, workspace: ws.baseAddress!, split: one,
                                   kernels: .portable)
                    }
                }
            }
            XCTAssertFalse(expectedFloats.contains { $0.isNaN }, "case \(index): the im2col path left outputs unwritten")

            let panelStride = (direct.panelBytes + 63) / 64 * 64
            var layout = [UInt8](repeating: 0xAA, count: direct.layoutBytes)
            var panels = [UInt8](repeating: 0xAA, count: panelStride * 2)
            for variant in CPUFeatures.current.supportedIntegerKernels {
                for (split, threads) in [(one, 1), (two, 2)] {
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
                    let label = "case \(index), \(variant), \(threads) thread(s)"
                    let floatMismatches = zip(floats, expectedFloats).offsets { $0.bitPattern != $1.bitPattern }
                    XCTAssertEqual(floatMismatches.count, 0, "\(label): float outputs differ, first at \(floatMismatches.first ?? -1)")
                    let codeMismatches = zip(bytes, expectedCodes).offsets { $0 != $1 }
                    XCTAssertEqual(codeMismatches.count, 0, "\(label): 8-bit outputs differ, first at \(codeMismatches.first ?? -1)")
                }
            }
        }
    }

    /// The reordering puts weight (filter, channel, row, column) at
    /// `((channel / 4 * size + row) * size + column) * 4 + channel % 4` and zeros where a last
    /// quad lacks channels.
    func testReorderedWeightsFollowTheQuadOrder() {
        let direct = Int8Direct(channels: 6, height: 4, width: 4, filters: 2, size: 3, padding: 1)
        XCTAssertEqual(direct.depth, 8 * 9)
        let weights = (0..<2 * 6 * 9).map(Float.init)
        let reordered = direct.reordered(weights)
        for filter in 0..<2 {
            for channel in 0..<8 {
                for offset in 0..<9 {
                    let value = reordered[filter * 72 + ((channel / 4) * 9 + offset) * 4 + channel % 4]
                    XCTAssertEqual(value, channel < 6 ? weights[filter * 54 + channel * 9 + offset] : 0,
                                   "filter \(filter), channel \(channel), offset \(offset)")
                }
            }
        }
    }

    /// Which int8 convolutions the planner takes the direct path for: stride 1 with a window over
    /// whole quads of channels and outputs at least 8 kernel widths wide; stride 2, 1x1 unpadded,
    /// 3-channel inputs and 13-wide 3x3 outputs stay on im2col.
    func testDirectSuitsStrideOneWindowsOverWholeChannelQuads() {
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
        XCTAssertFalse(direct(size: 3, stride: 1, padding: 1, channels: 16, outputWidth: 13))
        XCTAssertTrue(Int8Direct.computes(size: 3, stride: 1, padding: 1, channels: 16))
        XCTAssertFalse(direct(size: 3, stride: 2, padding: 1, channels: 16, outputWidth: 26))
        XCTAssertFalse(direct(size: 1, stride: 1, padding: 0, channels: 16, outputWidth: 26))
        XCTAssertFalse(direct(size: 3, stride: 1, padding: 1, channels: 3, outputWidth: 416))
    }

    /// The planner's int8 choice on YOLOv3-tiny: `.int8Direct` for its 3x3 layers 26 wide and
    /// more, `.int8Im2col` for those 13 wide and the 1x1 ones; `.im2colOnly` keeps im2col.
    func testPlannerPicksDirectForWideStrideOneInt8Layers() throws {
        let url = try TestPaths.require(TestPaths.tinyCfg)
        let spec = try NetworkSpec.parse(contentsOf: url)
        let float = try NetworkPlan(spec: spec)
        let calibration = Int8Calibration(
            cfg: "yolov3-tiny.cfg", inputShape: float.inputShape, imageCount: 1,
            layers: float.layers.filter { if case .convolutional = $0.spec.kind { true } else { false } }
                .map { Int8Calibration.Layer(layer: $0.index, input: $0.inputShape, minimum: -0.5, maximum: 4) })
        func algorithms(_ strategy: ConvolutionStrategy) throws -> [Int: ConvolutionAlgorithm] {
            var options = PlanOptions(precision: .int8(calibration, floatLayers: .none))
            options.convolutionStrategy = strategy
            let plan = try NetworkPlan(spec: spec, options: options)
            return Dictionary(uniqueKeysWithValues: plan.layers.compactMap { layer in
                layer.algorithm.flatMap { $0.isInt8 ? (layer.index, $0) : nil }
            })
        }
        let fastest = try algorithms(.fastest)
        XCTAssertEqual(Set(fastest.filter { $0.value == .int8Direct }.keys), [2, 4, 6, 8, 21])
        XCTAssertEqual(Set(fastest.filter { $0.value == .int8Im2col }.keys), [0, 10, 12, 13, 14, 15, 18, 22])
        XCTAssertEqual(Set(try algorithms(.im2colOnly).values), [.int8Im2col])
    }
}

private extension Zip2Sequence {
    /// Offsets of the pairs where `differ` holds.
    func offsets(_ differ: (Sequence1.Element, Sequence2.Element) -> Bool) -> [Int] {
        enumerated().filter { differ($0.element.0, $0.element.1) }.map(\.offset)
    }
}
