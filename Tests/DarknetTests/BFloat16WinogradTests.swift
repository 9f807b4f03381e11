@testable import Darknet
import XCTest

/// `.bfloat16WinogradF23` and `.bfloat16WinogradF33` on whole layers: within the bound of
/// rounding the transformed operands to bfloat16, and every bfloat16 set's bits its portable
/// set's on any thread count.
final class BFloat16WinogradTests: XCTestCase {
    /// Odd and even output sides (multiples of 3 and not), an odd channel count, filters not a
    /// multiple of 16, several 48-filter panels, K over one block of 256 pairs; for F(3x3, 3x3)
    /// one band (shared by the threads) and four of three tile rows (33x33: whole bands, and on
    /// three threads one shared).
    static let shapes: [(channels: Int, height: Int, width: Int, filters: Int)] = [
        (64, 13, 13, 40), (33, 7, 9, 19), (32, 6, 10, 100), (520, 5, 5, 50), (40, 12, 17, 24), (64, 33, 33, 60),
    ]

    /// F(2x2, 3x3): G, |Bᵀ| and |Aᵀ| (entries in magnitude).
    static let f23 = Matrices(g: [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0, 0, 1]],
                              bT: [[1, 0, 1, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 1, 0, 1]],
                              aT: [[1, 1, 1, 0], [0, 1, 1, 1]])
    /// F(3x3, 3x3), points ±1/2, ±3/2 and infinity.
    static let f33 = Matrices(g: [[0.5, 0.25, 0.125], [0.5, 0.25, 0.125], [1.0 / 6, 0.25, 0.375], [1.0 / 6, 0.25, 0.375], [0, 0, 1]],
                              bT: [[1.125, 2.25, 0.5, 1, 0], [1.125, 2.25, 0.5, 1, 0], [0.375, 0.25, 1.5, 1, 0],
                                   [0.375, 0.25, 1.5, 1, 0], [0.5625, 0, 2.5, 0, 1]],
                              aT: [[1, 1, 1, 1, 0], [0.5, 0.5, 1.5, 1.5, 0], [0.25, 0.25, 2.25, 2.25, 1]])

    func testF23MatchesFloat32WithinTheTransformedRoundingAndEverySetAndThreadCountGivesTheSameBits() throws {
        try checkTile(BFloat16F23.self, Self.f23)
    }

    func testF33MatchesFloat32WithinTheTransformedRoundingAndEverySetAndThreadCountGivesTheSameBits() throws {
        try checkTile(BFloat16F33.self, Self.f33)
    }

    /// F(3x3, 3x3)'s transforms in float32 (its products by the float32 tile-major kernel) give
    /// the convolution to float32's rounding: the bfloat16 bound above is too loose to catch a
    /// wrong transform constant, this is not (each output within 2^-18 of its products'
    /// magnitude). Every vector set this CPU runs, over the same shapes.
    func testF33TransformsInFloat32GiveTheConvolution() throws {
        struct FloatF33: WinogradMethod {
            static var algorithm: ConvolutionAlgorithm { .winogradF23 }
            static var tile: WinogradWeightTransform.Tile { .f33 }
            static var products: WinogradDriver.Products { .tileMajor }
            let driver: WinogradDriver, kernels: VectorKernels
        }
        for (n, shape) in Self.shapes.enumerated() {
            let layer = try RandomConvolutionLayer(channels: shape.channels, height: shape.height, width: shape.width,
                                                   filters: shape.filters, size: 3, stride: 1, seed: UInt64(n + 31))
            let reference = layer.float32Output
            let magnitudes = layer.run(layer.float32Method, weights: layer.weights.map(abs),
                                       biases: [Float](repeating: 0, count: layer.biases.count), input: layer.x.map(abs),
                                       split: ThreadSplit(threads: 1))
            for kernels in CPUFeatures.current.supportedVectorKernels {
                let method = FloatF33(ConvolutionCandidate(shapes: layer.shapes, cpu: .current, kernels: kernels))
                let output = runConvolution(method, weights: layer.weights, biases: layer.biases, input: layer.x,
                                            outputCount: layer.shapes.output.count, split: ThreadSplit(threads: 2),
                                            kernels: kernels)
                for index in reference.indices
                where !(abs(output[index] - reference[index]) <= (magnitudes[index] + abs(layer.biases[index / layer.shapes.output.planeSize])) / 262_144 + 1e-6) {
                    XCTFail("\(shape) \(kernels): output \(index) is \(output[index]), float32 \(reference[index])")
                    break
                }
            }
        }
    }

    /// Each output within 2^-8 (two roundings to 8 significant bits) of the sum, over channels
    /// and the elements, of |Aᵀ| (|G g Gᵀ| x |Bᵀ d B|) |A| from float32's; every SIMD set
    /// this CPU runs gives its portable set's bits on 1, 2 and 3 threads (the last in the finest
    /// pieces).
    func checkTile<Tile: BFloat16WinogradTile>(_ tile: Tile.Type, _ matrices: Matrices) throws {
        let banded = BFloat16Winograd<BFloat16F33>(ConvolutionCandidate(
            shapes: try RandomConvolutionLayer(channels: 64, height: 33, width: 33, filters: 60, size: 3, stride: 1, seed: 1).shapes,
            cpu: .current, kernels: .portable, arithmetic: .bfloat16, reducedKernels: .portable))
        XCTAssertEqual(banded.bandTileRows, 3, "33x33 from 64 channels: four bands")
        let portableSets = ReducedKernels.allCases.filter { $0.isPortable && $0.arithmetic == .bfloat16 }
        let simdSets = ReducedKernels.runningSIMDSets(.bfloat16, test: "BFloat16WinogradTests")
        for (n, shape) in Self.shapes.enumerated() {
            let layer = try RandomConvolutionLayer(channels: shape.channels, height: shape.height, width: shape.width,
                                                   filters: shape.filters, size: 3, stride: 1, seed: UInt64(n + 11))
            let reference = layer.float32Output, bound = Self.roundingBound(layer, matrices)
            func method(_ kernels: ReducedKernels) -> BFloat16Winograd<Tile> {
                BFloat16Winograd<Tile>(ConvolutionCandidate(shapes: layer.shapes, cpu: .current, kernels: .portable,
                                                            arithmetic: .bfloat16, reducedKernels: kernels))
            }
            for portable in portableSets {
                XCTAssertTrue(BFloat16Winograd<Tile>.computes(ConvolutionCandidate(
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

    /// A Winograd form's matrices, entries in magnitude.
    struct Matrices {
        let g: [[Double]], bT: [[Double]], aT: [[Double]]
    }

    /// Per output, 2^-8 (1 + 2^-10) of Σ over channels and elements of |Aᵀ| (|G| |g| |G|ᵀ x
    /// |Bᵀ| |d| |B|) |A| (the form's matrices, entries in magnitude), plus 10^-5: each product of
    /// transformed operands rounded to 8 significant bits moves by under 2^-8 of it, float32's
    /// sums and transforms by far less.
    static func roundingBound(_ layer: RandomConvolutionLayer, _ matrices: Matrices) -> [Float] {
        let (g, bT, aT) = (matrices.g, matrices.bT, matrices.aT)
        let n = aT.count, t = bT.count
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
        let tileRows = (height + n - 1) / n, tileColumns = (width + n - 1) / n
        func input(_ c: Int, _ y: Int, _ x: Int) -> Double {
            y < 0 || y >= height || x < 0 || x >= width ? 0 : Double(abs(layer.x[(c * height + y) * width + x]))
        }
        let v = (0..<channels).map { c in (0..<tileRows * tileColumns).map { tile in
            transform(bT, (0..<t).map { i in (0..<t).map { j in
                input(c, n * (tile / tileColumns) - 1 + i, n * (tile % tileColumns) - 1 + j)
            } })
        } }
        var bound = [Float](repeating: 0, count: layer.shapes.output.count)
        for f in 0..<filters {
            for tile in 0..<tileRows * tileColumns {
                var m = [[Double]](repeating: [Double](repeating: 0, count: t), count: t)
                for c in 0..<channels { for a in 0..<t { for b in 0..<t { m[a][b] += u[f][c][a][b] * v[c][tile][a][b] } } }
                for i in 0..<n {
                    for j in 0..<n {
                        let y = n * (tile / tileColumns) + i, x = n * (tile % tileColumns) + j
                        guard y < height, x < width else { continue }
                        var sum = 0.0
                        for a in 0..<t { for b in 0..<t { sum += aT[i][a] * m[a][b] * aT[j][b] } }
                        bound[(f * height + y) * width + x] = Float(sum / 256 * (1 + 1.0 / 1024) + 1e-5)
                    }
                }
            }
        }
        return bound
    }
}
