@_spi(Testing) @testable import Darknet
import TestSupport
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

    /// The candidate `layer` is for the planner, on `cpu`.
    private static func candidate(_ layer: Layer, cpu: CPUFeatures = .current, kernels: VectorKernels? = nil,
                                  strategy: ConvolutionStrategy = .fastest) -> ConvolutionCandidate {
        ConvolutionCandidate(shapes: ConvolutionShapes(conv: layer.conv, input: layer.input, output: layer.output),
                             cpu: cpu, kernels: kernels, strategy: strategy)
    }

    /// `method`'s output for `layer`, its weights laid out as the loader does.
    private static func run(_ method: any ConvolutionMethod, _ layer: Layer, split: ThreadSplit,
                            kernels: VectorKernels) -> [Float] {
        runConvolution(method, weights: layer.weights, biases: layer.biases, input: layer.x, outputCount: layer.output.count,
                       split: split, kernels: kernels)
    }

    func testEveryVariantMatchesTheBLASPathAndEveryThreadCountGivesTheSameBits() throws {
        for (n, shape) in Self.shapes.enumerated() {
            let layer = try Self.layer(shape, seed: UInt64(n + 1))
            let reference = Self.run(DirectGEMMConvolution(Self.candidate(layer)), layer, split: ThreadSplit(threads: 1),
                                     kernels: .portable)
            for level in CPUFeatures.current.supportedVectorKernels {
                let method = PointwiseConvolution(Self.candidate(layer, kernels: level))
                let one = Self.run(method, layer, split: ThreadSplit(threads: 1), kernels: level)
                assertClose(one, reference, tolerance: 2e-4 * Float(shape.channels).squareRoot(), "\(shape) \(level), \(method.chunks(threads: 1))")
                for split in [ThreadSplit(threads: 2), ThreadSplit(threads: 3, finestPieces: true)] {
                    XCTAssertEqual(Self.run(method, layer, split: split, kernels: level), one, "\(shape) \(level), \(split.threads) threads")
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
            let method = PointwiseConvolution(Self.candidate(layer))
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
        let method = PointwiseConvolution(Self.candidate(head))
        XCTAssertEqual(method.chunks(threads: 1).count, 2)
        XCTAssertEqual(method.chunks(threads: 2).count, 4, "169 positions: 4 chunks of 48 or fewer")
    }

    /// Planned as other CPUs: an AVX-512 one whose OpenBLAS runs its Haswell kernels takes the
    /// product kernel; with OpenBLAS's AVX-512 kernels, on AVX2 or arm64, with the reference
    /// strategy or groups, the BLAS.
    func testThePlannerTakesItForUngroupedPointwiseLayersWhereItBeatsTheBLAS() throws {
        let layer = try Self.layer((64, 13, 13, 255), seed: 1)
        let haswellBLAS = BLASFeatures(kernelFamily: "Haswell", cutsInvariantly: true)
        func choice(_ layer: Layer, _ cpu: CPUFeatures, _ strategy: ConvolutionStrategy = .fastest) -> ConvolutionAlgorithm {
            type(of: ConvolutionChoice.plan(Self.candidate(layer, cpu: cpu, strategy: strategy))).algorithm
        }
        // The product kernel is AVX-512 code, compiled into x86-64 builds only.
        let x86Build = CPUFeatures.compiledArchitecture == .x86_64
        XCTAssertEqual(choice(layer, .x86_64(avx512: true, blas: haswellBLAS)), x86Build ? .pointwise : .direct)
        XCTAssertEqual(choice(layer, .x86_64(avx512: true)), .direct, "OpenBLAS's SkylakeX kernels")
        XCTAssertEqual(choice(layer, .x86_64(blas: haswellBLAS)), .direct, "AVX2: the product kernel has no edge")
        XCTAssertEqual(choice(layer, .arm64(dotProduct: true)), .direct)
        XCTAssertEqual(choice(layer, .x86_64(avx512: true, blas: haswellBLAS), .im2colOnly), .direct,
                       "the reference path keeps the BLAS")
        var grouped = layer
        grouped = Layer(conv: { var conv = layer.conv; conv.groups = 5; return conv }(), input: layer.input,
                        output: layer.output, weights: layer.weights, biases: layer.biases, x: layer.x)
        XCTAssertEqual(choice(grouped, .x86_64(avx512: true, blas: haswellBLAS)), .direct)
    }
}
