import CDarknetKernels
@testable import Darknet
import TestSupport
import XCTest

/// The bfloat16 kernels (`CDarknetKernels/reduced.h`): every SIMD set gives the portable set's
/// bits (VDPBF16PS's arithmetic written out in C), the portable set is within the stated bound of
/// the exact sums of the rounded operands, and the rounding is VCVTNEPS2BF16's.
final class BFloat16KernelTests: XCTestCase {
    /// The bfloat16 sets this CPU runs besides the portable ones; a line says which were not exercised.
    private var simdSets: [ReducedKernels] { ReducedKernels.runningSIMDSets(.bfloat16, test: "BFloat16KernelTests") }

    /// Rounding: to nearest even at the 16th bit, ties included; denormals to signed zero; NaNs quiet.
    func testRoundingIsVCVTNEPS2BF16s() {
        func bf16(_ bits: UInt32) -> UInt16 { swiftdarknet_bf16_from_float(Float(bitPattern: bits)) }
        XCTAssertEqual(bf16(0x3F80_0000), 0x3F80)                  // 1
        XCTAssertEqual(bf16(0x3F80_8000), 0x3F80)                  // tie, even stays
        XCTAssertEqual(bf16(0x3F81_8000), 0x3F82)                  // tie, odd rounds up
        XCTAssertEqual(bf16(0x3F80_8001), 0x3F81)                  // above the tie
        XCTAssertEqual(bf16(0x7F7F_FFFF), 0x7F80)                  // the largest float rounds to infinity
        XCTAssertEqual(bf16(0x0000_0001), 0x0000)                  // denormal
        XCTAssertEqual(bf16(0x8040_0000), 0x8000)                  // negative denormal
        XCTAssertEqual(bf16(0x7FA0_0001), 0x7FE0)                  // signalling NaN made quiet
        XCTAssertEqual(bf16(0xFF80_0000), 0xFF80)                  // -infinity
    }

    /// The two summations on one pair: 1 x 1 + 1 x 2^-24. VDPBF16PS adds the high product first,
    /// then the low one, each rounded to nearest even (1 + 2^-24 is a tie: 1); BFDOT adds the
    /// products, rounded to odd (1 + 2^-23), then adds that to the sum.
    func testPortableSetsAreVDPBF16PSAndBFDOTSummations() {
        let x86 = gemm([1, 1], [1, 0x1p-24], m: 1, k: 2, columns: 1, on: .portable)
        let arm = gemm([1, 1], [1, 0x1p-24], m: 1, k: 2, columns: 1, on: .portableARM)
        XCTAssertEqual(x86[0].bitPattern, 0x3F80_0000)
        XCTAssertEqual(arm[0].bitPattern, 0x3F80_0001)
        XCTAssertEqual(ReducedKernels.bfdot.reference, .portableARM)
        XCTAssertEqual(ReducedKernels.bfmmla.reference, .portableARM)
        XCTAssertEqual(ReducedKernels.avx512.reference, .portable)
    }

    /// VDPBF16PS adds each product to the sum as a fused multiply-add and flushes only the
    /// sum: 2^-125 (the high product) plus -2^-127 (the low one, a denormal product) is
    /// 1.5 x 2^-126, where flushing the product first would leave 2^-125. Each SIMD set agrees.
    func testVDPBF16PSAddsATinyProductBeforeFlushing() {
        let weights: [Float] = [-0x1p-63, 0x1p-62], column: [Float] = [0x1p-64, 0x1p-63]
        let x86 = gemm(weights, column, m: 1, k: 2, columns: 1, on: .portable)
        XCTAssertEqual(x86[0], 0x1.8p-126)
        let (m, columns) = (5, 33)
        let a = (0..<m).flatMap { _ in weights }, b = column.flatMap { Array(repeating: $0, count: columns) }
        for set in simdSets where set.reference == .portable { assertSameBits(a, b, m: m, k: 2, columns: columns, on: set) }
    }

    /// Packing on each SIMD set equals the portable packing (the hardware's rounding), over
    /// values with every kind of tail and special value.
    func testPackingMatchesThePortableSetBitForBit() {
        var random = TestRandom(seed: 16)
        let sets = simdSets
        for (k, columns) in [(1, 1), (2, 16), (3, 17), (27, 33), (64, 47), (9, 100)] {
            var values = (0..<k * columns).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: random.next())) }
            values[0] = .nan
            if values.count > 3 { values[1] = .infinity; values[2] = Float(bitPattern: 1); values[3] = 1.00390625 }
            for set in sets {
                let portable = pack(values, k: k, columns: columns, on: set.reference)
                XCTAssertEqual(pack(values, k: k, columns: columns, on: set), portable, "\(set), k \(k), columns \(columns)")
            }
        }
    }

    /// The GEMM on each SIMD set equals the portable one bit for bit, over shapes that exercise
    /// every row and column tail; the portable one is within `bound` of exact sums.
    func testGEMMMatchesThePortableSetAndTheExactSums() {
        var random = TestRandom(seed: 61)
        let sets = simdSets
        for (m, k, columns) in [(1, 1, 1), (3, 5, 17), (8, 27, 48), (13, 64, 49), (16, 576, 96), (255, 256, 169), (4, 9, 1000), (9, 4608, 20)] {
            let a = (0..<m * k).map { _ in (random.unit() - 0.5) * 4 }
            let b = (0..<k * columns).map { _ in (random.unit() - 0.3) * 8 }
            for set in sets { assertSameBits(a, b, m: m, k: k, columns: columns, on: set) }
            // Both portable sets (VDPBF16PS's and BFDOT's summations) are within the bound.
            for portable in [gemm(a, b, m: m, k: k, columns: columns, on: .portable),
                             gemm(a, b, m: m, k: k, columns: columns, on: .portableARM)] {
                // Exact sums of the bfloat16 operands in double: float32 summation of K products
                // errs by at most K ulps of the sum of magnitudes.
                let rounded = { (x: Float) in Double(swiftdarknet_float_from_bf16(swiftdarknet_bf16_from_float(x))) }
                for i in 0..<m {
                    for j in 0..<columns {
                        var exact = 0.0, magnitude = 0.0
                        for p in 0..<k {
                            let product = rounded(a[i * k + p]) * rounded(b[p * columns + j])
                            exact += product
                            magnitude += abs(product)
                        }
                        let bound = Double(k) * Double(Float.ulpOfOne) * magnitude
                        XCTAssertLessThanOrEqual(abs(Double(portable[i * columns + j]) - exact), bound, "m \(m) k \(k) (\(i), \(j))")
                    }
                }
            }
        }
    }

    /// The same on operands with special values: one in 64 an infinity or a NaN of any sign and
    /// payload, of the others an eighth random bits (overflowing products among them), the rest
    /// denormals, signed zeros, ordinary values and values whose products are near the smallest
    /// normal float, so the sums meet the instructions' flushing, overflow and NaN propagation
    /// (the portable sums show they do).
    func testGEMMOnSpecialValuesMatchesThePortableSet() {
        var random = TestRandom(seed: 7)
        func value() -> Float {
            if random.next() % 64 == 0 {  // infinity or NaN
                return Float(bitPattern: 0x7F80_0000 | UInt32(truncatingIfNeeded: random.next()) & 0x807F_FFFF)
            }
            return switch random.next() % 8 {
            case 0: Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            case 1: Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x807F_FFFF)  // denormal or zero
            case 2: Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x8000_0000)  // signed zero
            case 3, 4, 5: (random.unit() - 0.5) * 4
            default: (random.unit() - 0.5) * 1e-19                                                // products near 2^-126
            }
        }
        let sets = simdSets
        var sums: [Float] = []
        for (m, k, columns) in [(1, 1, 3), (3, 5, 17), (9, 7, 20), (13, 64, 49), (10, 2, 40)] {
            let a = (0..<m * k).map { _ in value() }, b = (0..<k * columns).map { _ in value() }
            for portable in [ReducedKernels.portable, .portableARM] { sums += gemm(a, b, m: m, k: k, columns: columns, on: portable) }
            for set in sets { assertSameBits(a, b, m: m, k: k, columns: columns, on: set) }
        }
        let kinds = [sums.filter(\.isNaN).count, sums.filter(\.isInfinite).count, sums.filter { $0 == 0 }.count,
                     sums.filter { $0.isFinite && $0 != 0 }.count]
        XCTAssertTrue(kinds.allSatisfy { $0 >= 10 }, "NaN, infinite, zero and finite sums: \(kinds) of \(sums.count)")
    }

    /// An odd number of pairs after a sum flushed to -0: BFDOT's arithmetic keeps -0 when the last
    /// pair's products are -0 (1.5 x 2^-126 - 2^-125 is -2^-127, a denormal, flushed to -0; then
    /// -0 + -0), where one more, padded, pair would make it +0 (how a BFMMLA-only tail would err).
    func testOddLastPairKeepsAFlushedMinusZero() {
        let weights: [Float] = [0x1.8p-63, 0, 0x1p-63, 0x1p-63, 1, 1]
        let column: [Float] = [0x1p-63, 0, -0x1p-63, -0x1p-63, -0.0, -0.0]
        let (m, columns) = (3, 9)
        let a = (0..<m).flatMap { _ in weights }
        let b = column.flatMap { Array(repeating: $0, count: columns) }
        let arm = gemm(a, b, m: m, k: 6, columns: columns, on: .portableARM)
        XCTAssertTrue(arm.allSatisfy { $0.bitPattern == 0x8000_0000 }, "\(arm)")
        for set in simdSets { assertSameBits(a, b, m: m, k: 6, columns: columns, on: set) }
    }

    /// Fails where `set`'s GEMM differs from its portable set's in any bit (the first such output).
    private func assertSameBits(_ a: [Float], _ b: [Float], m: Int, k: Int, columns: Int, on set: ReducedKernels,
                                line: UInt = #line) {
        let simd = gemm(a, b, m: m, k: k, columns: columns, on: set)
        let reference = gemm(a, b, m: m, k: k, columns: columns, on: set.reference)
        XCTAssertEqual(simd.count, reference.count, line: line)
        if let index = simd.indices.first(where: { simd[$0].bitPattern != reference[$0].bitPattern }) {
            XCTFail("\(set) gives \(simd[index]) against \(set.reference)'s \(reference[index]) at m \(m), k \(k), "
                    + "columns \(columns), output \(index)", line: line)
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
        a.withUnsafeBufferPointer { a in weights.withUnsafeMutableBufferPointer { swiftdarknet_bf16_pack_weights(a.baseAddress!, m, k, $0.baseAddress!) } }
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
