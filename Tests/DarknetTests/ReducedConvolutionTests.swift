@testable import Darknet
import TestSupport
import XCTest

/// `.bfloat16GEMM` and `.float16GEMM` (`ReducedConvolution`) on whole layers: within the format's
/// rounding of float32's result, and every set's bits those of its portable set on any thread
/// count, over planes of one chunk and of several.
final class ReducedConvolutionTests: XCTestCase {
    /// 1x1 and 3x3 layers: one chunk, several with a short last one (from few channels, whose
    /// chunks are long, to K over 256 pairs; with a window, chunks of several output rows, of one
    /// row wider than a chunk), odd K, strides of 2 and 3 (windows of 1, 2, 3 and 5 cells over odd
    /// channel counts and odd plane sizes), filters not a multiple of 8. Planes of
    /// several chunks run both ways: the threads taking whole chunks (`splitsChunks`, as planned
    /// for their small weights) and sharing each chunk (with a weight limit of 0).
    static let shapes: [(channels: Int, height: Int, width: Int, filters: Int, size: Int, stride: Int)] = [
        (64, 13, 13, 255, 1, 1), (32, 70, 90, 20, 1, 1), (256, 26, 26, 45, 1, 1), (600, 30, 20, 17, 1, 1),
        (3, 40, 60, 16, 3, 1), (33, 25, 31, 19, 3, 1), (64, 40, 40, 9, 3, 2), (64, 64, 64, 12, 3, 1),
        (16, 100, 120, 8, 3, 2), (64, 4, 600, 8, 3, 1),
        (5, 37, 53, 10, 3, 2), (6, 23, 41, 8, 1, 2), (9, 29, 35, 8, 5, 3), (4, 50, 19, 8, 2, 2),
    ]

    /// Each output within 2^-7 of the sum of its products' magnitudes from float32's (each
    /// operand rounded to 8 significant bits, or 11, moves a product by under 2^-8 of it); every
    /// set this CPU runs gives its portable set's bits, on 1, 2 and 3 threads (the last in the
    /// finest pieces).
    func testMatchesFloat32WithinRoundingAndEverySetAndThreadCountGivesTheSameBits() throws {
        let running = ReducedKernels.allCases.filter(\.isPortable)
            + ReducedKernels.runningSIMDSets(nil, test: "ReducedConvolutionTests")
        var chunkSplits = 0
        for (n, shape) in Self.shapes.enumerated() {
            let layer = try RandomConvolutionLayer(channels: shape.channels, height: shape.height, width: shape.width,
                                                   filters: shape.filters, size: shape.size, stride: shape.stride, seed: UInt64(n + 1))
            let one = ThreadSplit(threads: 1)
            let reference = layer.float32Output
            let magnitudes = layer.run(layer.float32Method, weights: layer.weights.map(abs),
                                       biases: [Float](repeating: 0, count: layer.biases.count), input: layer.x.map(abs), split: one)
            func method(_ kernels: ReducedKernels, sharingChunks: Bool = false) -> any ConvolutionMethod {
                let candidate = ConvolutionCandidate(shapes: layer.shapes, cpu: .current, kernels: .portable,
                                                     arithmetic: kernels.arithmetic, reducedKernels: kernels)
                let limit = sharingChunks ? 0 : BFloat16Convolution.defaultChunkSplitWeightLimit
                return kernels.arithmetic == .float16 ? Float16Convolution(candidate, chunkSplitWeightLimit: limit)
                    : BFloat16Convolution(candidate, chunkSplitWeightLimit: limit)
            }
            let planned = BFloat16Convolution(ConvolutionCandidate(shapes: layer.shapes, cpu: .current, arithmetic: .bfloat16,
                                                                   reducedKernels: .portable))
            if planned.splitsChunks { chunkSplits += 1 }
            for portable in running where portable.isPortable {
                let bits = layer.run(method(portable), split: one)
                for index in reference.indices where abs(bits[index] - reference[index]) > magnitudes[index] / 128 + 1e-5 {
                    XCTFail("\(shape) \(portable): output \(index) is \(bits[index]), float32 \(reference[index]), "
                            + "products' magnitude \(magnitudes[index])")
                    break
                }
                for kernels in running where kernels.reference == portable {
                    for split in [one, ThreadSplit(threads: 2), ThreadSplit(threads: 3, finestPieces: true)] {
                        XCTAssertEqual(layer.run(method(kernels), split: split), bits, "\(shape) \(kernels), \(split.threads) threads")
                        if planned.splitsChunks {
                            XCTAssertEqual(layer.run(method(kernels, sharingChunks: true), split: split), bits,
                                           "\(shape) \(kernels), \(split.threads) threads sharing each chunk")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(chunkSplits, 4, "planes the threads take in whole chunks")
    }
}
