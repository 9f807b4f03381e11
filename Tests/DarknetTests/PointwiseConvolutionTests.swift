@_spi(Testing) @testable import Darknet
import XCTest

/// `.pointwise` (`PointwiseConvolution`, the tile-major product kernel on 1x1 layers): every SIMD
/// variant this CPU runs against the BLAS path (`.direct`) on the same weights, every thread
/// count and cut of the chunks giving the same bits, and the planner's choice.
final class PointwiseConvolutionTests: XCTestCase {
    /// Planes under one block of 16, not a multiple of 16, one chunk and several (an even
    /// count), filters that are not a multiple of a vector block, one input channel.
    static let shapes: [(channels: Int, height: Int, width: Int, filters: Int)] = [
        (8, 7, 5, 5), (1, 1, 1, 2), (64, 13, 13, 255), (33, 9, 31, 20), (256, 26, 26, 255), (600, 20, 30, 300), (3, 40, 100, 49),
    ]

    private struct NotAConvolution: Error {}

    private struct Layer {
        let conv: ConvolutionalSpec
        let input: TensorShape, output: TensorShape
        let weights: [Float], biases: [Float], x: [Float]
    }

    private static func layer(_ shape: (channels: Int, height: Int, width: Int, filters: Int), seed: UInt64) throws -> Layer {
        let text = "[net]\nwidth=\(shape.width)\nheight=\(shape.height)\nchannels=\(shape.channels)\n"
            + "[convolutional]\nfilters=\(shape.filters)\nsize=1\nstride=1\npad=0\nactivation=leaky\n"
        let plan = try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: "pointwise.cfg"))
        guard case .convolutional(let conv) = plan.layers[0].spec.kind else { throw NotAConvolution() }
        var generator = SplitMix64(seed: seed)
        let weights = (0..<shape.filters * shape.channels).map { _ in generator.nextFloat(in: -1...1) }
        let biases = (0..<shape.filters).map { _ in generator.nextFloat(in: -1...1) }
        let x = (0..<plan.layers[0].inputShape.count).map { _ in generator.nextFloat(in: -2...2) }
        return Layer(conv: conv, input: plan.layers[0].inputShape, output: plan.layers[0].outputShape,
                     weights: weights, biases: biases, x: x)
    }

    /// `algorithm`'s output for `layer`, its weights laid out as the loader does.
    private static func run(_ algorithm: ConvolutionAlgorithm, _ layer: Layer, split: ThreadSplit) -> [Float] {
        let method = algorithm.method(for: layer.conv, input: layer.input, output: layer.output)
        let weights = ConvolutionParameters(weights: layer.weights, biases: layer.biases, for: algorithm,
                                            filters: layer.conv.filters, inputChannels: layer.input.channels).weights
        var workspace = [Float](repeating: .nan, count: method.workspaceCount + method.scratchCount * split.threads + 1)
        var output = [Float](repeating: .nan, count: layer.output.count)
        weights.withUnsafeBufferPointer { w in
            layer.biases.withUnsafeBufferPointer { b in
                layer.x.withUnsafeBufferPointer { x in
                    workspace.withUnsafeMutableBufferPointer { space in
                        output.withUnsafeMutableBufferPointer { y in
                            method.run(ConvolutionBuffers(
                                input: x.baseAddress!, weights: w.baseAddress!, biases: b.baseAddress!, output: y.baseAddress!,
                                workspace: space.baseAddress!, scratch: space.baseAddress! + method.workspaceCount,
                                scratchStride: method.scratchCount, split: split))
                        }
                    }
                }
            }
        }
        return output
    }

    func testEveryVariantMatchesTheBLASPathAndEveryThreadCountGivesTheSameBits() throws {
        let widest = SIMDLevel.current
        defer { SIMDLevel.limit(to: widest) }
        for (n, shape) in Self.shapes.enumerated() {
            let layer = try Self.layer(shape, seed: UInt64(n + 1))
            let method = PointwiseConvolution(layer.conv, inputShape: layer.input, outputShape: layer.output)
            let reference = Self.run(.direct, layer, split: ThreadSplit(threads: 1))
            for level in SIMDLevel.allCases where level.rawValue <= widest.rawValue {
                XCTAssertEqual(SIMDLevel.limit(to: level), level)
                let one = Self.run(.pointwise, layer, split: ThreadSplit(threads: 1))
                assertClose(one, reference, tolerance: 2e-4 * Float(shape.channels).squareRoot(), "\(shape) \(level), \(method.chunks(threads: 1))")
                for split in [ThreadSplit(threads: 2), ThreadSplit(threads: 3, finestPieces: true)] {
                    XCTAssertEqual(Self.run(.pointwise, layer, split: split), one, "\(shape) \(level), \(split.threads) threads")
                }
            }
        }
    }

    /// Chunks: each a multiple of 16 positions, covering the plane once with no empty one, none
    /// longer than the one-thread chunks the scratch is sized for; on several threads about 4 per
    /// thread where the plane has room for chunks of 48.
    func testChunksCoverThePlaneAndLeaveSeveralThreadsChunksToTake() throws {
        for shape in Self.shapes {
            let layer = try Self.layer(shape, seed: 1)
            let method = PointwiseConvolution(layer.conv, inputShape: layer.input, outputShape: layer.output)
            let plane = layer.output.planeSize
            for threads in [1, 2, 3] {
                let (count, positions) = method.chunks(threads: threads)
                XCTAssertEqual(positions % 16, 0, "\(shape)")
                XCTAssertGreaterThanOrEqual(count * positions, plane, "\(shape)")
                XCTAssertLessThan((count - 1) * positions, plane, "\(shape): an empty chunk")
                XCTAssertLessThanOrEqual(positions * (shape.channels + shape.filters), method.scratchCount, "\(shape)")
                if threads > 1 && plane >= 4 * threads * PointwiseConvolution.stealableChunk {
                    // 4 per thread, less what rounding chunks up to 16 positions takes.
                    XCTAssertGreaterThanOrEqual(count, 3 * threads, "\(shape), \(threads) threads")
                }
            }
        }
        let head = try Self.layer((1024, 13, 13, 256), seed: 1)
        let method = PointwiseConvolution(head.conv, inputShape: head.input, outputShape: head.output)
        XCTAssertEqual(method.chunks(threads: 1).count, 2)
        XCTAssertEqual(method.chunks(threads: 2).count, 4, "169 positions: 4 chunks of 48 or fewer")
    }

    func testThePlannerTakesItForUngroupedPointwiseLayersWhereItBeatsTheBLAS() throws {
        let layer = try Self.layer((64, 13, 13, 255), seed: 1)
        func choice(_ conv: ConvolutionalSpec, _ strategy: ConvolutionStrategy, beats: Bool) -> ConvolutionAlgorithm {
            ConvolutionAlgorithm.choose(for: conv, inputChannels: 64, outputHeight: 13, outputWidth: 13, strategy: strategy,
                                        pointwiseBeatsTheBLAS: beats)
        }
        XCTAssertEqual(choice(layer.conv, .fastest, beats: true), .pointwise)
        XCTAssertEqual(choice(layer.conv, .fastest, beats: false), .direct)
        XCTAssertEqual(choice(layer.conv, .im2colOnly, beats: true), .direct, "the reference path keeps the BLAS")
        var grouped = layer.conv
        grouped.groups = 2
        XCTAssertEqual(choice(grouped, .fastest, beats: true), .direct)
        print("BLAS kernels \(BLAS.kernelName), SIMD \(SIMDLevel.current): pointwise beats the BLAS: \(PointwiseConvolution.beatsTheBLAS)")
        XCTAssertEqual(PointwiseConvolution.beatsTheBLAS, SIMDLevel.current == .avx512 && !BLAS.hasAVX512Kernels)
    }
}
