import CDarknetKernels
@testable import Darknet
import TestSupport
import XCTest

/// The float16 kernels (`CDarknetKernels/reduced.h`, format SWIFTDARKNET_REDUCED_FP16): the
/// rounding to half is FCVTN's (and Swift's `Float16(_:)`), the portable GEMM is a fused
/// multiply-add per product in K order (FMLAL's arithmetic), the portable half-sum GEMM is
/// FMLA's on half lanes in blocks of 8 products added into float32, and every SIMD float16 set
/// gives its reference set's bits on random shapes (odd K, ragged columns and rows, half
/// denormals, magnitudes up to 60000).
final class Float16KernelTests: XCTestCase {
    /// The float16 sets this CPU runs besides the portable one; a line says which were not exercised.
    private var simdSets: [ReducedKernels] { ReducedKernels.runningSIMDSets(.float16, test: "Float16KernelTests") }

    /// Rounding: to nearest even, ties included; overflow to infinity from 65520; half denormals
    /// kept down to 2^-24, below 2^-25 to signed zero; NaNs quiet.
    func testRoundingIsFCVTNs() {
        func half(_ bits: UInt32) -> UInt16 { swiftdarknet_fp16_from_float(Float(bitPattern: bits)) }
        XCTAssertEqual(half(0x3F80_0000), 0x3C00)                  // 1
        XCTAssertEqual(half(0x3F80_1000), 0x3C00)                  // tie, even stays
        XCTAssertEqual(half(0x3F80_3000), 0x3C02)                  // tie, odd rounds up
        XCTAssertEqual(half(0x3F80_1001), 0x3C01)                  // above the tie
        XCTAssertEqual(half(0x477F_E000), 0x7BFF)                  // 65504, the largest half
        XCTAssertEqual(half(0x477F_EFFF), 0x7BFF)                  // just below the tie with 65520
        XCTAssertEqual(half(0x477F_F000), 0x7C00)                  // 65520 rounds to infinity
        XCTAssertEqual(half(0x3880_0000), 0x0400)                  // 2^-14, the smallest normal half
        XCTAssertEqual(half(0x3380_0000), 0x0001)                  // 2^-24, the smallest denormal half
        XCTAssertEqual(half(0x3300_0000), 0x0000)                  // 2^-25: a tie, to even zero
        XCTAssertEqual(half(0x3300_0001), 0x0001)                  // above it
        XCTAssertEqual(half(0xB3C0_0000), 0x8002)                  // -1.5 x 2^-24: a tie, to even 2
        XCTAssertEqual(half(0x0000_0001), 0x0000)                  // float denormal
        XCTAssertEqual(half(0x8040_0000), 0x8000)                  // negative float denormal
        XCTAssertEqual(half(0x7FA0_0001), 0x7F00)                  // signalling NaN made quiet
        XCTAssertEqual(half(0xFF80_0000), 0xFC00)                  // -infinity
        for bits in UInt16.min...UInt16.max where bits & 0x7C00 != 0x7C00 || bits & 0x3FF == 0 {
            XCTAssertEqual(swiftdarknet_fp16_from_float(swiftdarknet_float_from_fp16(bits)), bits, "half \(bits) round trip")
        }
    }

    #if !(os(macOS) && arch(x86_64))
    /// The C rounding equals Swift's own `Float16(_:)` (the compiler's, or the CPU's FCVT) on
    /// every float near the half range, random bits included.
    func testRoundingEqualsSwiftsFloat16() {
        var random = TestRandom(seed: 1616)
        for _ in 0..<200_000 {
            let bits = UInt32(truncatingIfNeeded: random.next())
            // Exponents from 2^-26 to 2^17 most of the time, any float otherwise.
            let exponent = UInt32(101 + random.next(below: 44)) << 23
            let value = Float(bitPattern: random.next(below: 4) == 0 ? bits : (bits & 0x807F_FFFF) | exponent)
            guard !value.isNaN else { continue }
            XCTAssertEqual(swiftdarknet_fp16_from_float(value), Float16(value).bitPattern, "\(value) (\(value.bitPattern))")
        }
    }
    #endif

    /// Packing on each SIMD set equals its reference's (the hardware's rounding), over values
    /// with every kind of tail and special value.
    func testPackingMatchesTheReferenceBitForBit() {
        var random = TestRandom(seed: 17)
        let sets = simdSets
        for (k, columns) in [(1, 1), (2, 16), (3, 17), (27, 33), (64, 47), (9, 100), (5, 7)] {
            var values = (0..<k * columns).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: random.next())) }
            let specials: [Float] = [.nan, .infinity, Float(bitPattern: 1), 65519, 65520, -70000, 3e-8, -0.0, 1.00048828125]
            for (index, special) in specials.enumerated() where index < values.count { values[index] = special }
            for set in sets {
                let reference = pack(values, k: k, columns: columns, on: set.reference)
                XCTAssertEqual(pack(values, k: k, columns: columns, on: set), reference, "\(set), k \(k), columns \(columns)")
            }
        }
    }

    /// The portable GEMM is FMLAL's arithmetic: for each output, `sum.addingProduct(w, x)` (one
    /// rounding) over the half operands in K order from +0, bit for bit; each SIMD set equals it.
    func testGEMMIsFusedProductsInKOrderOnEverySet() {
        var random = TestRandom(seed: 62)
        let sets = simdSets
        var shapes = [(1, 1, 1), (4, 9, 1000), (9, 4608, 20), (16, 576, 96), (5, 2304, 13)]
        for _ in 0..<24 { shapes.append((1 + random.next(below: 9), 1 + random.next(below: 40), 1 + random.next(below: 40))) }
        for (m, k, columns) in shapes {
            let a = (0..<m * k).map { _ in Self.operand(&random) }
            let b = (0..<k * columns).map { _ in Self.operand(&random) }
            let portable = gemm(a, b, m: m, k: k, columns: columns, on: .portableFloat16)
            let half = { (x: Float) in swiftdarknet_float_from_fp16(swiftdarknet_fp16_from_float(x)) }
            var expected = [Float](repeating: 0, count: m * columns)
            for i in 0..<m {
                for j in 0..<columns {
                    var sum: Float = 0
                    for p in 0..<k { sum = sum.addingProduct(half(a[i * k + p]), half(b[p * columns + j])) }
                    expected[i * columns + j] = sum
                }
            }
            XCTAssertTrue(portable.elementsEqual(expected) { $0.bitPattern == $1.bitPattern },
                          "portable float16 is not sequential fused products at m \(m), k \(k), columns \(columns)")
            for set in sets {
                let reference = set.reference == .portableFloat16 ? portable : gemm(a, b, m: m, k: k, columns: columns, on: set.reference)
                let simd = gemm(a, b, m: m, k: k, columns: columns, on: set)
                let first = simd.indices.first { simd[$0].bitPattern != reference[$0].bitPattern }
                XCTAssertNil(first, "\(set) differs from \(set.reference) at m \(m), k \(k), columns \(columns), output \(first ?? -1)")
            }
        }
    }

    #if !(os(macOS) && arch(x86_64))
    /// The portable half-sum GEMM is FMLA's arithmetic on half lanes: for each output, K in blocks
    /// of 4 pairs, each block's half sum from +0 taking one fused multiply-add rounded to half per
    /// product in K order, the block's sum then added into a float32 sum from +0; bit for bit
    /// against a model in Double (exact products and TwoSum, then `Float16(_:)`'s one rounding),
    /// on half denormals, cancellations, ties and sums that overflow a half. The FMLA set is
    /// checked against it in `testGEMMIsFusedProductsInKOrderOnEverySet`.
    func testHalfSumGEMMIsFMLAsBlocksAddedIntoFloat32() {
        XCTAssertEqual(Int(SWIFTDARKNET_FP16_HALF_SUM_PAIRS), 4)
        XCTAssertEqual(ReducedKernels.fmla.reference, .portableHalfSums)
        XCTAssertEqual(ReducedKernels.portableHalfSums.arithmetic, .float16)
        let halfSumSets = simdSets.filter { $0.reference == .portableHalfSums }
        var random = TestRandom(seed: 88), finite = 0, total = 0
        var shapes = [(1, 1, 1), (1, 8, 1), (1, 9, 3), (4, 17, 300), (6, 576, 19), (3, 4608, 9), (8, 64, 169), (8, 576, 60)]
        for _ in 0..<24 { shapes.append((1 + random.next(below: 9), 1 + random.next(below: 48), 1 + random.next(below: 40))) }
        for (m, k, columns) in shapes {
            let a = (0..<m * k).map { _ in Self.halfSumOperand(&random) }
            let b = (0..<k * columns).map { _ in Self.halfSumOperand(&random) }
            let portable = gemm(a, b, m: m, k: k, columns: columns, on: .portableHalfSums)
            var expected = [Float](repeating: 0, count: m * columns)
            for i in 0..<m {
                for j in 0..<columns {
                    expected[i * columns + j] = Self.halfSums((0..<k).map { (a[i * k + $0], b[$0 * columns + j]) })
                }
            }
            let first = portable.indices.first { portable[$0].bitPattern != expected[$0].bitPattern }
            XCTAssertNil(first, "portable half sums differ from the model at m \(m), k \(k), columns \(columns), output \(first ?? -1): "
                         + "\(first.map { "\(portable[$0]) against \(expected[$0])" } ?? "")")
            finite += portable.filter(\.isFinite).count
            total += portable.count
            for set in halfSumSets {
                let simd = gemm(a, b, m: m, k: k, columns: columns, on: set)
                let differing = simd.indices.filter { simd[$0].bitPattern != portable[$0].bitPattern }
                XCTAssertTrue(differing.isEmpty, "\(set) differs from the portable half sums at m \(m), k \(k), columns \(columns), "
                              + "\(differing.count) outputs, first \(differing.first.map { "\($0): \(simd[$0]) against \(portable[$0])" } ?? "")")
            }
        }
        XCTAssertGreaterThan(finite, total * 9 / 10, "most half sums stay finite")
        // Where it differs from FMLAL's arithmetic: 2048 + 1 + 1 is 2048 in half steps (the half
        // ulp at 2048 is 2, each 1 a tie to even), 2050 in float32's; a ninth product starts a new
        // half sum, so 8 x 2048 + 1 + 1 keeps its 2 (16384 is a half; the block's sum is exact).
        XCTAssertEqual(gemm([1, 1, 1], [2048, 1, 1], m: 1, k: 3, columns: 1, on: .portableHalfSums), [2048])
        XCTAssertEqual(gemm([1, 1, 1], [2048, 1, 1], m: 1, k: 3, columns: 1, on: .portableFloat16), [2050])
        XCTAssertEqual(gemm([Float](repeating: 1, count: 10), [Float](repeating: 2048, count: 8) + [1, 1], m: 1, k: 10, columns: 1,
                            on: .portableHalfSums), [16386])
        // One rounding, not two: 2048 + (1 + 31/1024)(1 - 30/1024) is 2049 + 94 x 2^-20, which
        // float32 rounds to 2049, a tie between halves that would go to even 2048; the exact sum
        // lies above it, so FMLA gives 2050.
        XCTAssertEqual(gemm([1, 1 + 31.0 / 1024], [2048, 1 - 30.0 / 1024], m: 1, k: 2, columns: 1, on: .portableHalfSums), [2050])
        // A block's half sum overflows at 65520; float32 across blocks does not.
        XCTAssertEqual(gemm([Float](repeating: 1, count: 8), [Float](repeating: 9000, count: 8), m: 1, k: 8, columns: 1,
                            on: .portableHalfSums), [.infinity])
        XCTAssertEqual(gemm([Float](repeating: 1, count: 16), [Float](repeating: 4000, count: 16), m: 1, k: 16, columns: 1,
                            on: .portableHalfSums), [64000])
    }

    /// The model: `products` (float operands, rounded to half first) in blocks of 8 products; each
    /// step's Double sum, where inexact, rounded to odd first (so that rounding it to half rounds once).
    private static func halfSums(_ products: [(Float, Float)]) -> Float {
        let half = { (x: Float) in Double(Float16(x)) }
        var total: Float = 0
        for block in stride(from: 0, to: products.count, by: 8) {
            var sum = Float16(0)
            for (w, x) in products[block..<min(block + 8, products.count)] {
                let product = half(w) * half(x), addend = Double(sum)   // exact: 22 significant bits
                var rounded = addend + product
                let back = rounded - addend, error = (addend - (rounded - back)) + (product - back)
                if error != 0 && error.isFinite && rounded.bitPattern & 1 == 0 { rounded = error > 0 ? rounded.nextUp : rounded.nextDown }
                sum = Float16(rounded)
            }
            total += Float(sum)
        }
        return total
    }
    #endif

    /// Activation-like values, some half denormals, some up to 64 (block sums then stay finite
    /// mostly: `operand`'s 60000 would make most half sums infinite), some zeros.
    private static func halfSumOperand(_ random: inout TestRandom) -> Float {
        let sign: Float = random.next(below: 2) == 0 ? 1 : -1
        switch random.next(below: 10) {
        case 0: return sign * Float(random.next(below: 2048)) * 0x1p-24
        case 1: return sign * random.unit() * 64
        case 2: return random.next(below: 2) == 0 ? 0 : -0.0
        default: return (random.unit() - 0.5) * 8
        }
    }

    /// Mostly activation-like values, some half denormals, some large (up to 60000), some zeros.
    private static func operand(_ random: inout TestRandom) -> Float {
        let sign: Float = random.next(below: 2) == 0 ? 1 : -1
        switch random.next(below: 10) {
        case 0: return sign * Float(random.next(below: 2048)) * 0x1p-24      // half denormals and the lowest normals
        case 1: return sign * (1000 + random.unit() * 59000)
        case 2: return random.next(below: 2) == 0 ? 0 : -0.0
        default: return (random.unit() - 0.5) * 8
        }
    }

    private func pack(_ values: [Float], k: Int, columns: Int, on set: ReducedKernels) -> [UInt32] {
        var pairs = [UInt32](repeating: 0xDEAD_BEEF, count: (k + 1) / 2 * columns)
        values.withUnsafeBufferPointer { values in
            pairs.withUnsafeMutableBufferPointer { set.functions.pointee.pack(values.baseAddress!, k, columns, columns, $0.baseAddress!) }
        }
        return pairs
    }

    private func gemm(_ a: [Float], _ b: [Float], m: Int, k: Int, columns: Int, on set: ReducedKernels) -> [Float] {
        let pairs = (k + 1) / 2
        var weights = [UInt32](repeating: 0, count: m * pairs)
        let packWeights = set.functions.pointee.pack_weights
        a.withUnsafeBufferPointer { a in weights.withUnsafeMutableBufferPointer { packWeights(a.baseAddress!, m, k, $0.baseAddress!) } }
        let packed = pack(b, k: k, columns: columns, on: set)
        var c = [Float](repeating: .nan, count: m * columns)
        weights.withUnsafeBufferPointer { w in
            packed.withUnsafeBufferPointer { x in
                c.withUnsafeMutableBufferPointer {
                    set.functions.pointee.gemm(w.baseAddress!, m, pairs, x.baseAddress!, columns, $0.baseAddress!, columns)
                }
            }
        }
        return c
    }
}
