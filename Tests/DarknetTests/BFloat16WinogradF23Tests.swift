@testable import Darknet
import XCTest

/// `.bfloat16WinogradF23` on whole layers: within the bound of rounding F(2x2, 3x3)'s transformed
/// operands to bfloat16, and every bfloat16 set's bits its portable set's on any thread count.
final class BFloat16WinogradF23Tests: XCTestCase {
    /// Odd and even output sides, an odd channel count, filters not a multiple of 16, several
    /// 48-filter panels, K over one block of 256 pairs.
    static let shapes: [(channels: Int, height: Int, width: Int, filters: Int)] = [
        (64, 13, 13, 40), (33, 7, 9, 19), (32, 6, 10, 100), (520, 5, 5, 50),
    ]

    /// Each output within 2^-8 (two roundings to 8 significant bits) of the sum, over channels
    /// and the 16 elements, of |Aᵀ| (|G g Gᵀ| x |Bᵀ d B|) |A| from float32's; every SIMD set
    /// this CPU runs gives its portable set's bits on 1, 2 and 3 threads (the last in the finest
    /// pieces).
    func testMatchesFloat32WithinTheTransformedRoundingAndEverySetAndThreadCountGivesTheSameBits() throws {
        let portableSets = ReducedKernels.allCases.filter { $0.isPortable && $0.arithmetic == .bfloat16 }
        let simdSets = ReducedKernels.runningSIMDSets(.bfloat16, test: "BFloat16WinogradF23Tests")
        for (n, shape) in Self.shapes.enumerated() {
            let layer = try RandomConvolutionLayer(channels: shape.channels, height: shape.height, width: shape.width,
                                                   filters: shape.filters, size: 3, stride: 1, seed: UInt64(n + 11))
            let reference = layer.float32Output, bound = Self.roundingBound(layer)
            func method(_ kernels: ReducedKernels) -> BFloat16WinogradF23 {
                BFloat16WinogradF23(ConvolutionCandidate(shapes: layer.shapes, cpu: .current, kernels: .portable,
                                                         arithmetic: .bfloat16, reducedKernels: kernels))
            }
            for portable in portableSets {
                XCTAssertTrue(BFloat16WinogradF23.computes(ConvolutionCandidate(
                    shapes: layer.shapes, cpu: .current, kernels: .portable, arithmetic: .bfloat16, reducedKernels: portable)))
                let bits = layer.run(method(portable), split: ThreadSplit(threads: 1))
                XCTAssertNotEqual(bits, reference, "\(shape) \(portable): bfloat16 rounds")
                for index in reference.indices where !(abs(bits[index] - reference[index]) <= bound[index]) {
                    XCTFail("\(shape) \(portable): output \(index) is \(bits[index]), float32 \(reference[index]), bound \(bound[index])")
                    break
                }
                for kernels in simdSets where kernels.reference == portable {
                    for split in [ThreadSplit(threads: 1), ThreadSplit(threads: 2), ThreadSplit(threads: 3, finestPieces: true)] {
                        XCTAssertEqual(layer.run(method(kernels), split: split), bits, "\(shape) \(kernels), \(split.threads) threads")
                    }
                }
            }
        }
    }

    /// Per output, 2^-8 (1 + 2^-10) of Σ over channels and elements of |Aᵀ| (|G| |g| |G|ᵀ x
    /// |Bᵀ| |d| |B|) |A| (F(2x2, 3x3)'s matrices, entries in magnitude), plus 10^-5: each
    /// product of transformed operands rounded to 8 significant bits moves by under 2^-8 of it,
    /// float32's sums and transforms by far less.
    static func roundingBound(_ layer: RandomConvolutionLayer) -> [Float] {
        let g: [[Double]] = [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0, 0, 1]]
        let bT: [[Double]] = [[1, 0, 1, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 1, 0, 1]]
        let aT: [[Double]] = [[1, 1, 1, 0], [0, 1, 1, 1]]
        let channels = layer.shapes.input.channels, height = layer.shapes.input.height, width = layer.shapes.input.width
        let filters = layer.shapes.conv.filters
        func transform(_ m: [[Double]], _ x: [[Double]]) -> [[Double]] {  // m x mᵀ
            m.map { row in m.map { column in
                var sum = 0.0
                for i in row.indices { for j in column.indices { sum += row[i] * x[i][j] * column[j] } }
                return sum
            } }
        }
        // |G| |g| |G|ᵀ for every (filter, channel), |Bᵀ| |d| |B| for every (channel, tile).
        let u = (0..<filters).map { f in (0..<channels).map { c in
            transform(g, (0..<3).map { i in (0..<3).map { j in Double(abs(layer.weights[((f * channels + c) * 3 + i) * 3 + j])) } })
        } }
        let tileRows = (height + 1) / 2, tileColumns = (width + 1) / 2
        func input(_ c: Int, _ y: Int, _ x: Int) -> Double {
            y < 0 || y >= height || x < 0 || x >= width ? 0 : Double(abs(layer.x[(c * height + y) * width + x]))
        }
        let v = (0..<channels).map { c in (0..<tileRows * tileColumns).map { t in
            transform(bT, (0..<4).map { i in (0..<4).map { j in
                input(c, 2 * (t / tileColumns) - 1 + i, 2 * (t % tileColumns) - 1 + j)
            } })
        } }
        var bound = [Float](repeating: 0, count: layer.shapes.output.count)
        for f in 0..<filters {
            for t in 0..<tileRows * tileColumns {
                var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
                for c in 0..<channels { for a in 0..<4 { for b in 0..<4 { m[a][b] += u[f][c][a][b] * v[c][t][a][b] } } }
                for i in 0..<2 {
                    for j in 0..<2 {
                        let y = 2 * (t / tileColumns) + i, x = 2 * (t % tileColumns) + j
                        guard y < height, x < width else { continue }
                        var sum = 0.0
                        for a in 0..<4 { for b in 0..<4 { sum += aT[i][a] * m[a][b] * aT[j][b] } }
                        bound[(f * height + y) * width + x] = Float(sum / 256 * (1 + 1.0 / 1024) + 1e-5)
                    }
                }
            }
        }
        return bound
    }
}
