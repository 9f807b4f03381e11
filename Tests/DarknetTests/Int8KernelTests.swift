import CDarknetKernels
@testable import Darknet
import Foundation
import XCTest

/// The int8 convolution core (`CDarknetKernels/integer.h`, `Arithmetic/Int8/Kernels`): every SIMD variant this CPU
/// runs against the portable one (bit-identical int32 sums, float and u8 outputs), the portable
/// one against plain Swift loops, the epilogue against a float reference from dequantized
/// inputs, int8 against float sgemm within a stated quantization bound, saturation extremes,
/// the quantization helpers, and im2col + GEMM against a direct integer convolution.
final class Int8KernelTests: XCTestCase {
    // MARK: Operands

    /// Random int8 weights and uint8 activations of one GEMM, unpacked and packed.
    struct Operands: CustomStringConvertible {
        let m, n, k: Int
        let a: [Int8]
        let b: [UInt8]
        let weights: Int8PackedWeights
        let packedB: [UInt8]
        var description: String { "M=\(m) N=\(n) K=\(k)" }

        init(m: Int, n: Int, k: Int, a: [Int8], b: [UInt8], scales: [Float]? = nil) {
            self.m = m; self.n = n; self.k = k; self.a = a; self.b = b
            weights = Int8PackedWeights(quantized: a, scales: scales ?? [Float](repeating: 1, count: m), rows: m, depth: k)
            var packed = [UInt8](repeating: 0xAA, count: Int8Im2col.packedBytes(depth: k, columns: n))
            b.withUnsafeBufferPointer { source in
                packed.withUnsafeMutableBufferPointer {
                    Int8Im2col.pack(source.baseAddress!, depth: k, columns: n, rowStride: n, into: $0.baseAddress!)
                }
            }
            packedB = packed
        }

        /// Weights in -128...127, or within ±`weightLimit` (±63 runs AVX2's narrow kernel).
        init(m: Int, n: Int, k: Int, seed: UInt64, weightLimit: Int32? = nil) {
            var random = SplitMix64(seed: seed)
            let a = (0..<m * k).map { _ in
                weightLimit.map { Int8(Int64(random.next() % UInt64(2 * $0 + 1)) - Int64($0)) } ?? Int8(truncatingIfNeeded: random.next())
            }
            let b = (0..<k * n).map { _ in UInt8(truncatingIfNeeded: random.next()) }  // 0 ... 255
            self.init(m: m, n: n, k: k, a: a, b: b)
        }

        /// The int32 sums by `variant`, over `range` of the columns (the rest stays 0x7eeeeeee).
        func sums(_ variant: IntegerKernels, range: Range<Int>? = nil, rows: Range<Int>? = nil) -> [Int32] {
            var c = [Int32](repeating: 0x7EEE_EEEE, count: m * n)
            packedB.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer {
                    Int8GEMM.multiply(weights, b.baseAddress!, columns: n, into: $0.baseAddress!, rowStride: n,
                                      range: range, rows: rows, kernels: variant)
                }
            }
            return c
        }

        func floats(_ variant: IntegerKernels, _ epilogue: Int8Epilogue) -> [Float] {
            var c = [Float](repeating: .nan, count: m * n)
            packedB.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer {
                    Int8GEMM.multiply(weights, b.baseAddress!, columns: n, epilogue: epilogue, into: $0.baseAddress!,
                                      rowStride: n, kernels: variant)
                }
            }
            return c
        }

        func codes(_ variant: IntegerKernels, _ epilogue: Int8Epilogue, _ output: Int8TensorQuantization) -> [UInt8] {
            var c = [UInt8](repeating: 0xAA, count: m * n)
            packedB.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer {
                    Int8GEMM.multiply(weights, b.baseAddress!, columns: n, epilogue: epilogue, into: $0.baseAddress!,
                                      quantization: output, rowStride: n, kernels: variant)
                }
            }
            return c
        }

        /// The sums by plain Swift loops over the unpacked operands.
        func naiveSums() -> [Int32] {
            var c = [Int32](repeating: 0, count: m * n)
            for row in 0..<m {
                for column in 0..<n {
                    var sum: Int64 = 0
                    for i in 0..<k { sum += Int64(a[row * k + i]) * Int64(b[i * n + column]) }
                    c[row * n + column] = Int32(sum)
                }
            }
            return c
        }
    }

    /// Random shapes with every kind of remainder: M not a multiple of the 8-row block, N of the
    /// 8/16/48 columns of a tile, K of the quad of 4 (odd K included), plus the tiny extremes.
    static func randomShapes(count: Int, seed: UInt64) -> [(m: Int, n: Int, k: Int)] {
        var random = SplitMix64(seed: seed)
        var shapes: [(m: Int, n: Int, k: Int)] = [(1, 1, 1), (1, 1, 4), (8, 16, 4), (9, 17, 5), (7, 1, 27), (3, 47, 3),
                                                  (17, 49, 7), (16, 48, 64), (1, 200, 301), (33, 1, 2)]
        for _ in 0..<count {
            shapes.append((Int(random.next() % 70) + 1, Int(random.next() % 150) + 1, Int(random.next() % 300) + 1))
        }
        return shapes
    }

    /// YOLOv3-tiny's im2col GEMMs at 416 (M = filters, N = output plane, K = channels * size²):
    /// layers 0, 8, 13, 15 and 22 (the others' shapes differ only in size, and the portable
    /// kernel in a debug build is slow).
    static let tinyShapes: [(m: Int, n: Int, k: Int)] = [(16, 173_056, 27), (256, 676, 1152), (256, 169, 1024),
                                                          (255, 169, 512), (255, 676, 256)]

    /// The SIMD variants this CPU runs (the portable one is the reference).
    var simdVariants: [IntegerKernels] { CPUFeatures.current.supportedIntegerKernels.filter { $0 != .portable } }


    // MARK: Integer sums

    /// The portable kernel (and with it the packing) gives the sums of plain Swift loops.
    func testPortableSumsAreTheNaiveSums() {
        // Plus shapes wider than the packing's 512-column chunks.
        for (index, shape) in (Self.randomShapes(count: 60, seed: 11) + [(3, 1100, 9), (9, 1537, 6)]).enumerated() {
            let operands = Operands(m: shape.m, n: shape.n, k: shape.k, seed: UInt64(100 + index))
            XCTAssertEqual(operands.sums(.portable), operands.naiveSums(), "\(operands)")
        }
    }

    /// Every SIMD variant gives the portable kernel's int32 sums, bit for bit, over random
    /// shapes with remainders and YOLOv3-tiny's shapes.
    func testEveryVariantGivesThePortableSums() throws {
        // A CPU without any SIMD variant has nothing to compare: then the portable kernel is the choice.
        guard !simdVariants.isEmpty else { return XCTAssertEqual(IntegerKernels.native, .portable) }
        let shapes = Self.randomShapes(count: 120, seed: 23) + Self.tinyShapes
        for (index, shape) in shapes.enumerated() {
            // Full-range weights, then 7-bit ones (AVX2's narrow kernel).
            for limit in [nil, IntegerKernels.narrowLimit] {
                let operands = Operands(m: shape.m, n: shape.n, k: shape.k, seed: UInt64(1000 + index), weightLimit: limit)
                let reference = operands.sums(.portable)
                for variant in simdVariants {
                    let sums = operands.sums(variant)
                    if sums != reference {
                        let first = sums.indices.first { sums[$0] != reference[$0] }!
                        XCTFail("\(variant) \(operands): element \(first) (row \(first / shape.n), column \(first % shape.n)) is \(sums[first]), portable \(reference[first])")
                    }
                }
            }
        }
    }

    /// Column and row ranges (how threads split a GEMM) write exactly their columns and rows,
    /// with the same sums.
    func testColumnAndRowRangesWriteOnlyTheirOutputs() {
        let pieces: [(columns: Range<Int>, rows: Range<Int>)] = [
            (0..<16, 0..<21), (16..<48, 0..<21), (48..<100, 0..<21), (32..<33, 0..<21), (96..<100, 0..<21),
            (0..<100, 0..<8), (0..<100, 8..<21), (0..<100, 16..<17), (16..<48, 8..<16),
        ]
        for limit in [nil, IntegerKernels.narrowLimit] {
          let operands = Operands(m: 21, n: 100, k: 37, seed: 5, weightLimit: limit)
          let whole = operands.sums(.portable)
          for variant in CPUFeatures.current.supportedIntegerKernels {
            for piece in pieces {
                let part = operands.sums(variant, range: piece.columns, rows: piece.rows)
                for row in 0..<operands.m {
                    for column in 0..<operands.n {
                        let index = row * operands.n + column
                        let expected = piece.columns.contains(column) && piece.rows.contains(row) ? whole[index] : 0x7EEE_EEEE
                        if part[index] != expected {
                            XCTFail("\(variant) \(piece): row \(row) column \(column) is \(part[index]), expected \(expected)")
                            return
                        }
                    }
                }
            }
          }
        }
    }

    /// Saturation extremes: every weight at the top or the bottom of a variant's range (127 and
    /// -128; ±63 for AVX2) against activations of 255 at large K (up to the bound, where the sum
    /// nearly fills an int32), and alternating signs that cancel. vpmaddubsw's int16 pair sums
    /// would saturate on full-range weights (2 x 127 x 255 = 64770), not on 7-bit ones (32130).
    func testSaturationExtremesAreExact() {
        for k in [4608, 9999, Int8GEMM.maximumDepth] {
            let m = 9, n = 17
            var cases: [(name: String, weight: (Int) -> Int8, expected: Int64)] = []
            for (high, low) in [(Int8(127), Int8(-128)), (63, -63)] {
                let top = Int64(high) * 255, bottom = Int64(low) * 255
                cases.append(("all \(high)", { _ in high }, top * Int64(k)))
                cases.append(("all \(low)", { _ in low }, bottom * Int64(k)))
                cases.append(("\(high), \(low) alternating", { $0 % 2 == 0 ? high : low },
                              Int64(k / 2) * (top + bottom) + Int64(k % 2) * top))
            }
            for item in cases {
                let a = (0..<m * k).map { item.weight($0 % k) }
                let operands = Operands(m: m, n: n, k: k, a: a, b: [UInt8](repeating: 255, count: k * n))
                for variant in CPUFeatures.current.supportedIntegerKernels {
                    let sums = operands.sums(variant)
                    XCTAssertTrue(sums.allSatisfy { Int64($0) == item.expected },
                                  "\(variant) \(item.name) K=\(k): \(sums.first!) != \(item.expected)")
                }
            }
        }
    }

    // MARK: Epilogue

    /// Float weights and activations, quantized as a layer would be, with the requantization a
    /// layer would compute.
    struct QuantizedLayer {
        let operands: Operands
        let weightScales: [Float]
        let input: Int8TensorQuantization
        let bias: [Float]
        let floatWeights: [Float], floatInputs: [Float]

        init(m: Int, n: Int, k: Int, seed: UInt64, inputRange: ClosedRange<Float> = -0.5...3, weightLimit: Int32 = 127) {
            var random = SplitMix64(seed: seed)
            floatWeights = (0..<m * k).map { _ in random.nextFloat(in: -1...1) * 0.2 }
            floatInputs = (0..<k * n).map { _ in random.nextFloat(in: inputRange) }
            bias = (0..<m).map { _ in random.nextFloat(in: -1...1) }
            let (q, scales) = Int8Quantization.quantizeRows(floatWeights, rows: m, columns: k, limit: weightLimit)
            weightScales = scales
            input = Int8TensorQuantization(minimum: floatInputs.min()!, maximum: floatInputs.max()!)
            operands = Operands(m: m, n: n, k: k, a: q, b: input.quantize(floatInputs), scales: scales)
        }

        func epilogue(_ activation: Activation) -> Int8Epilogue {
            Int8Epilogue(requantization: operands.weights.requantization(input: input), bias: bias, activation: activation)
        }

        /// In Double, from the dequantized operands: the value before the activation.
        func dequantizedReference() -> [Double] {
            let (m, n, k) = (operands.m, operands.n, operands.k)
            var result = [Double](repeating: 0, count: m * n)
            for row in 0..<m {
                for column in 0..<n {
                    var sum: Double = 0
                    for i in 0..<k {
                        let code = Double(Int32(operands.b[i * n + column]) - input.zeroPoint)
                        sum += Double(weightScales[row]) * Double(operands.a[row * k + i]) * Double(input.scale) * code
                    }
                    result[row * n + column] = sum + Double(bias[row])
                }
            }
            return result
        }
    }

    static func activate(_ x: Double, _ activation: Activation) -> Double {
        switch activation {
        case .linear: x
        case .leaky: x > 0 ? x : 0.1 * x
        case .relu: max(x, 0)
        case .logistic: 1 / (1 + exp(-x))
        case .swish: x / (1 + exp(-x))
        case .mish: x * tanh(x > 20 ? x : log1p(exp(x)))
        default: .nan
        }
    }

    /// The float epilogue matches a Double reference computed from the dequantized inputs: the
    /// int32 sum is exact, so all that is left is float rounding of `(acc - c) * s + b` (the
    /// int-to-float conversion, the multiply, the add: 3 half-ulp roundings, bounded here by
    /// 2e-6 relative to the magnitudes involved) and the activation's libm error (2e-6 more).
    func testFloatEpilogueMatchesTheDequantizedReference() {
        for (index, shape) in [(5, 33, 7), (24, 50, 300), (1, 1, 1), (70, 97, 1152)].enumerated() {
            let layer = QuantizedLayer(m: shape.0, n: shape.1, k: shape.2, seed: UInt64(40 + index))
            let reference = layer.dequantizedReference()
            for activation in [Activation.linear, .leaky, .relu, .logistic, .mish, .swish] {
                let output = layer.operands.floats(.portable, layer.epilogue(activation))
                var worst = 0.0
                for (i, pre) in reference.enumerated() {
                    let expected = Self.activate(pre, activation)
                    let row = i / shape.1
                    let magnitude = abs(pre) + abs(Double(layer.bias[row])) + 1e-30
                    let tolerance = 2e-6 * magnitude + (activation == .linear || activation == .leaky || activation == .relu ? 0 : 2e-6 * (abs(expected) + 1e-3))
                    let error = abs(Double(output[i]) - expected)
                    worst = max(worst, error / tolerance)
                    if !(error <= tolerance) {
                        XCTFail("\(activation) \(layer.operands) element \(i): \(output[i]) vs reference \(expected) (tolerance \(tolerance))")
                        break
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1)
            }
        }
    }

    /// Every SIMD variant's float and u8 outputs equal the portable ones bit for bit, for every
    /// fused activation, and the u8 output is exactly the quantization of the float output.
    func testEveryVariantGivesThePortableEpilogue() {
        let output = Int8TensorQuantization(minimum: -0.3, maximum: 0.6)
        for (index, shape) in [(13, 61, 9), (8, 48, 64), (70, 130, 301), (255, 169, 512)].enumerated() {
          for limit in Set([127, IntegerKernels.narrowLimit]).sorted() {
            let layer = QuantizedLayer(m: shape.0, n: shape.1, k: shape.2, seed: UInt64(70 + index), weightLimit: limit)
            for activation in [Activation.linear, .leaky, .relu, .logistic, .mish, .swish] {
                let epilogue = layer.epilogue(activation)
                let floats = layer.operands.floats(.portable, epilogue)
                let codes = layer.operands.codes(.portable, epilogue, output)
                XCTAssertEqual(codes, output.quantize(floats), "\(activation) \(layer.operands): u8 != quantize(float)")
                if activation == .linear {
                    XCTAssertTrue(codes.contains(0) && codes.contains(255), "\(layer.operands): the output range should saturate at both ends")
                }
                for variant in simdVariants {
                    let variantFloats = layer.operands.floats(variant, epilogue)
                    XCTAssertTrue(variantFloats.map(\.bitPattern) == floats.map(\.bitPattern), "\(variant) \(activation) \(layer.operands): float output differs")
                    XCTAssertEqual(layer.operands.codes(variant, epilogue, output), codes, "\(variant) \(activation) \(layer.operands): u8 output differs")
                }
            }
          }
        }
    }

    // MARK: Against float

    /// int8 GEMM against OpenBLAS sgemm on the same float data. Bound per element (m, n), from
    /// w x - ŵ x̂ = (w - ŵ) x + ŵ (x - x̂) with |w - ŵ| <= s_w[m] / 2 and |x - x̂| <= s_x / 2 (data
    /// inside the calibrated range, so nothing clips):
    ///     |int8 - float| <= Σ_k (s_w[m] / 2 |x[k, n]| + |ŵ[m, k]| s_x / 2) + 1e-5 Σ_k |w| |x|,
    /// the last term for float rounding in both. The typical error is far below this worst
    /// case (errors of random sign add like sqrt(K)): the RMS error must also stay under 1 % of
    /// the RMS output.
    func testInt8IsWithinTheQuantizationBoundOfSgemm() throws {
        try BLAS.ensureLoaded()
        for (index, shape) in [(16, 1000, 27), (64, 169, 576), (255, 52, 1152), (7, 3, 5)].enumerated() {
            // Weights quantized as this CPU's fastest variant takes them (7 bits with AVX2).
            let layer = QuantizedLayer(m: shape.0, n: shape.1, k: shape.2, seed: UInt64(90 + index), inputRange: -0.3...2,
                                       weightLimit: IntegerKernels.native.plannedWeightLimit(depth: shape.2))
            let (m, n, k) = (shape.0, shape.1, shape.2)
            var expected = [Float](repeating: 0, count: m * n)
            layer.floatWeights.withUnsafeBufferPointer { a in
                layer.floatInputs.withUnsafeBufferPointer { b in
                    expected.withUnsafeMutableBufferPointer {
                        BLAS.sgemm(m: m, n: n, k: k, a: a.baseAddress!, lda: k, b: b.baseAddress!, ldb: n, c: $0.baseAddress!, ldc: n)
                    }
                }
            }
            let epilogue = Int8Epilogue(requantization: layer.operands.weights.requantization(input: layer.input), bias: nil, activation: .linear)
            let actual = layer.operands.floats(.native, epilogue)
            var squaredError = 0.0, squaredOutput = 0.0
            for row in 0..<m {
                for column in 0..<n {
                    var bound = 0.0, magnitude = 0.0
                    for i in 0..<k {
                        let x = Double(layer.floatInputs[i * n + column]), w = Double(layer.floatWeights[row * k + i])
                        let quantizedWeight = Double(layer.weightScales[row]) * Double(layer.operands.a[row * k + i])
                        bound += Double(layer.weightScales[row]) / 2 * abs(x) + abs(quantizedWeight) * Double(layer.input.scale) / 2
                        magnitude += abs(w * x)
                    }
                    bound += 1e-5 * magnitude
                    let error = abs(Double(actual[row * n + column]) - Double(expected[row * n + column]))
                    squaredError += error * error
                    squaredOutput += Double(expected[row * n + column]) * Double(expected[row * n + column])
                    if !(error <= bound) {
                        XCTFail("M=\(m) N=\(n) K=\(k) (\(row), \(column)): int8 \(actual[row * n + column]) vs sgemm \(expected[row * n + column]), error \(error) > bound \(bound)")
                        return
                    }
                }
            }
            XCTAssertLessThan((squaredError / squaredOutput).squareRoot(), 0.01, "M=\(m) N=\(n) K=\(k): relative RMS error")
        }
    }

    // MARK: Quantization helpers

    func testTensorQuantizationRoundsHalfToEvenAndSaturates() {
        let unit = Int8TensorQuantization(scale: 0.5, zeroPoint: 10)
        // x / 0.5 = -1.5, -0.5, 0.5, 1.5, 2.5 -> -2, -0, 0, 2, 2; plus the zero point 10.
        XCTAssertEqual(unit.quantize([-0.75, -0.25, 0.25, 0.75, 1.25]), [8, 10, 10, 12, 12])
        XCTAssertEqual(unit.quantize([-1000, 1000, .infinity, -.infinity, .nan, 0]), [0, 255, 255, 0, 10, 10], "NaN takes the code of 0.0")
        XCTAssertEqual(unit.dequantize(10), 0)
        XCTAssertEqual(unit.dequantize(255), 122.5)
        XCTAssertEqual(Int8Quantization.quantizeSigned([-0.75, 0.75, 1.25, -1000, 1000, .nan], scale: 0.5), [-2, 2, 2, -128, 127, 0])

        let range = Int8TensorQuantization(minimum: -1, maximum: 3)
        XCTAssertEqual(range.scale, 4 / 255)
        XCTAssertEqual(range.zeroPoint, 64)  // rint(1 / (4 / 255)) = rint(63.75)
        XCTAssertEqual(range.dequantize(UInt8(range.zeroPoint)), 0, "0.0 must have an exact code")
        let positive = Int8TensorQuantization(minimum: 0.5, maximum: 2)  // widened to include 0
        XCTAssertEqual(positive.zeroPoint, 0)
        XCTAssertEqual(positive.quantize([2]), [255])
    }

    /// The kernels' rounding (no rintf call) is Swift's `.toNearestOrEven` on random values,
    /// exact halves and values far outside the range.
    func testTensorQuantizationMatchesSwiftRounding() {
        var random = SplitMix64(seed: 17)
        let quantization = Int8TensorQuantization(scale: 0.25, zeroPoint: 100)
        var values = (0..<20_000).map { _ in random.nextFloat(in: -40...40) }
        values += (-200...200).map { Float($0) * 0.125 }  // halves and quarters of a step
        values += [1e30, -1e30, 3e9, -3e9, .leastNonzeroMagnitude, -0.0]
        let expected = values.map { x -> UInt8 in
            let code = (x / 0.25).rounded(.toNearestOrEven) + 100
            return UInt8(min(max(code, 0), 255))
        }
        XCTAssertEqual(quantization.quantize(values), expected)
        let signed = values.map { x -> Int8 in Int8(min(max((x / 0.25).rounded(.toNearestOrEven), -128), 127)) }
        XCTAssertEqual(Int8Quantization.quantizeSigned(values, scale: 0.25), signed)
        // The portable loop gives the same codes as the SIMD one (AVX-512 on a CPU that has it),
        // also for NaN, infinities and a count that is not a multiple of 16.
        let special = values + [.nan, .infinity, -.infinity, 255.875, -25.125]
        var portable = [UInt8](repeating: 0, count: special.count)
        VectorKernels.portable.functions.pointee.quantize_u8(special, special.count, 0.25, 100, &portable)
        for kernels in CPUFeatures.current.supportedVectorKernels {
            XCTAssertEqual(quantization.quantize(special, kernels: kernels), portable, "\(kernels)")
        }
    }

    /// Codes are rint(x * (1 / scale)), the product by the float reciprocal, not the quotient:
    /// on values at and beside half steps of scales without an exact reciprocal, where the two
    /// round differently (the test checks that such values are there), the SIMD and portable
    /// quantizers give the product's codes.
    func testQuantizationNearHalfStepsIsTheProductByTheReciprocal() {
        var differingProducts = 0
        for scale: Float in [0.1, 0.0123, 1 / 3, 0.2173913, 7.77] {
            let quantization = Int8TensorQuantization(scale: scale, zeroPoint: 128)
            var values: [Float] = []
            for step in -140...140 {
                let half = (Float(step) + 0.5) * scale
                values += [half, half.nextUp, half.nextDown, half.nextUp.nextUp, half.nextDown.nextDown]
            }
            let expected = values.map { x -> UInt8 in UInt8(min(max((x * (1 / scale)).rounded(.toNearestOrEven) + 128, 0), 255)) }
            differingProducts += values.indices.filter { i in
                let quotient = UInt8(min(max((values[i] / scale).rounded(.toNearestOrEven) + 128, 0), 255))
                return quotient != expected[i]
            }.count
            let codes = quantization.quantize(values)
            let wrong = values.indices.filter { codes[$0] != expected[$0] }
            XCTAssertTrue(wrong.isEmpty, "scale \(scale): \(wrong.count) codes differ from the product's, first at \(wrong.first.map { values[$0] } ?? 0)")
            var portable = [UInt8](repeating: 0, count: values.count)
            VectorKernels.portable.functions.pointee.quantize_u8(values, values.count, scale, 128, &portable)
            XCTAssertEqual(portable, codes, "scale \(scale): portable and SIMD codes differ")
        }
        XCTAssertGreaterThan(differingProducts, 0, "no value where the quotient rounds differently: the test does not bite")
    }

    /// A max pool over codes gives the codes of the float pool over their values, in every
    /// geometry path: 2x2 at stride 1 (the flat pass and its last column and row, one channel
    /// or many, 1 wide or 1 high), 2x2 at stride 2 (the 32-byte steps, odd sizes), and the
    /// general windows (size 3, other paddings, unequal strides).
    func testMaxpoolOverCodesIsTheCodesOfTheFloatPool() {
        var random = SplitMix64(seed: 29)
        let quantization = Int8TensorQuantization(scale: 0.125, zeroPoint: 40)
        let geometries: [(channels: Int, height: Int, width: Int, size: Int, strideX: Int, strideY: Int, padding: Int)] = [
            (3, 13, 13, 2, 1, 1, 1), (1, 40, 37, 2, 1, 1, 1), (5, 1, 20, 2, 1, 1, 1), (4, 9, 1, 2, 1, 1, 1),
            (4, 64, 70, 2, 2, 2, 1), (3, 37, 37, 2, 2, 2, 1), (2, 26, 26, 2, 2, 2, 0), (2, 20, 66, 2, 2, 2, 1),
            (2, 9, 11, 3, 2, 2, 2), (3, 12, 12, 2, 1, 1, 0), (2, 15, 17, 5, 1, 1, 4), (2, 10, 14, 2, 2, 1, 1),
        ]
        for g in geometries {
            let outHeight = (g.height + g.padding - g.size) / g.strideY + 1
            let outWidth = (g.width + g.padding - g.size) / g.strideX + 1
            let codes = (0..<g.channels * g.height * g.width).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let values = codes.map(quantization.dequantize)
            var pooledFloats = [Float](repeating: 0, count: g.channels * outHeight * outWidth)
            var pooledCodes = [UInt8](repeating: 0xAA, count: pooledFloats.count + 1)  // one guard byte
            VectorKernels.native.maxpool(values, channels: g.channels, height: g.height, width: g.width, size: g.size, strideX: g.strideX,
                    strideY: g.strideY, padding: g.padding, outHeight: outHeight, outWidth: outWidth, into: &pooledFloats,
                    scratch: nil)
            VectorKernels.native.maxpoolCodes(codes, channels: g.channels, height: g.height, width: g.width, size: g.size, strideX: g.strideX,
                         strideY: g.strideY, padding: g.padding, outHeight: outHeight, outWidth: outWidth, into: &pooledCodes)
            XCTAssertEqual(Array(pooledCodes.dropLast()), quantization.quantize(pooledFloats), "\(g)")
            XCTAssertEqual(pooledCodes.last, 0xAA, "\(g): wrote past the output")
        }
    }

    func testWeightRowsQuantizeSymmetricallyWithinHalfAStep() {
        var random = SplitMix64(seed: 3)
        let rows = 5, columns = 31
        var weights = (0..<rows * columns).map { _ in random.nextFloat(in: -2...2) }
        for i in 0..<columns { weights[2 * columns + i] = 0 }  // a row of zeros
        weights[3 * columns + 4] = -7                            // a row whose largest value is negative
        // The full int8 range, and the 7-bit one of AVX2's narrow kernel.
        for limit in [127, IntegerKernels.narrowLimit] {
            let (values, scales) = Int8Quantization.quantizeRows(weights, rows: rows, columns: columns, limit: limit)
            XCTAssertEqual(scales[2], 0)
            XCTAssertTrue(values[(2 * columns)..<(3 * columns)].allSatisfy { $0 == 0 })
            XCTAssertEqual(Int32(values[3 * columns + 4]), -limit)
            XCTAssertEqual(scales[3], 7 / Float(limit))
            for row in 0..<rows where scales[row] > 0 {
                let slice = values[(row * columns)..<((row + 1) * columns)]
                XCTAssertEqual(slice.map { abs(Int32($0)) }.max(), limit, "row \(row): the largest weight takes the full range")
                for i in 0..<columns {
                    let error = abs(scales[row] * Float(values[row * columns + i]) - weights[row * columns + i])
                    XCTAssertLessThanOrEqual(error, scales[row] / 2 * (1 + 1e-6), "limit \(limit) row \(row) column \(i)")
                }
            }
        }
    }

    // MARK: Convolution

    /// `Int8Convolution` (quantized input, 8-bit im2col or packing, GEMM, epilogue) against a
    /// Double direct convolution of the float data: within the same bound as the GEMM test,
    /// summed over each output's window (padding reads the zero point, which is exactly 0.0 on
    /// both sides; leaky and ReLU never widen a difference). The same output at 1 thread and
    /// at 2 threads in the finest pieces (split by columns, and by rows for the narrow 13 x 13
    /// case), and the u8 output is the float output's codes.
    func testConvolutionIsWithinTheQuantizationBoundAtAnyThreadCount() {
        let cases: [(c: Int, h: Int, w: Int, filters: Int, size: Int, stride: Int, pad: Int, activation: Activation)] = [
            (3, 20, 21, 16, 3, 1, 1, .leaky), (8, 13, 13, 10, 1, 1, 0, .linear), (5, 17, 15, 7, 3, 2, 1, .relu),
            (40, 9, 9, 19, 3, 1, 1, .leaky), (16, 13, 13, 130, 3, 1, 1, .leaky),
        ]
        XCTAssertTrue(Int8Convolution.splitsRows(strips: 11, blocks: 17, threads: 2), "the 13 x 13 case should split rows at 2 threads")
        XCTAssertFalse(Int8Convolution.splitsRows(strips: 11, blocks: 17, threads: 1))
        let one = ThreadSplit(threads: 1), two = ThreadSplit(threads: 2, finestPieces: true)
        for (index, item) in cases.enumerated() {
            var random = SplitMix64(seed: UInt64(500 + index))
            let convolution = Int8Convolution(channels: item.c, height: item.h, width: item.w, filters: item.filters,
                                              size: item.size, padding: item.pad, stride: item.stride)
            let k = convolution.depth, n = convolution.columns
            let input = (0..<item.c * item.h * item.w).map { _ in random.nextFloat(in: -0.5...3) }
            let weights = (0..<item.filters * k).map { _ in random.nextFloat(in: -0.2...0.2) }
            let bias = (0..<item.filters).map { _ in random.nextFloat(in: -0.5...0.5) }
            let quantization = Int8TensorQuantization(minimum: input.min()!, maximum: input.max()!)
            let codes = quantization.quantize(input)
            let packed = Int8PackedWeights(weights: weights, rows: item.filters, depth: k)
            let quantizedWeights = Int8Quantization.quantizeRows(weights, rows: item.filters, columns: k,
                                                                 limit: IntegerKernels.native.plannedWeightLimit(depth: k)).values
            let epilogue = Int8Epilogue(requantization: packed.requantization(input: quantization), bias: bias,
                                        activation: item.activation)
            let outputQuantization = Int8TensorQuantization(minimum: -0.5, maximum: 2)
            var workspace = [UInt8](repeating: 0, count: convolution.workspaceBytes)
            func run(_ split: ThreadSplit) -> (floats: [Float], codes: [UInt8]) {
                var floats = [Float](repeating: .nan, count: item.filters * n)
                var bytes = [UInt8](repeating: 0xAA, count: item.filters * n)
                codes.withUnsafeBufferPointer { x in
                    workspace.withUnsafeMutableBufferPointer { ws in
                        floats.withUnsafeMutableBufferPointer {
                            convolution.run(input: x.baseAddress!, quantization: quantization, weights: packed, epilogue: epilogue,
                                            output: $0.baseAddress!, workspace: ws.baseAddress!, split: split,
                                            kernels: .native)
                        }
                        bytes.withUnsafeMutableBufferPointer {
                            convolution.run(input: x.baseAddress!, quantization: quantization, weights: packed, epilogue: epilogue,
                                            output: $0.baseAddress!, outputQuantization: outputQuantization,
                                            workspace: ws.baseAddress!, split: split, kernels: .native)
                        }
                    }
                }
                return (floats, bytes)
            }
            let single = run(one), double = run(two)
            XCTAssertEqual(single.floats.map(\.bitPattern), double.floats.map(\.bitPattern), "\(item): 1 vs 2 threads")
            XCTAssertEqual(single.codes, double.codes, "\(item): u8 output, 1 vs 2 threads")
            XCTAssertEqual(single.codes, outputQuantization.quantize(single.floats), "\(item): u8 != quantize(float)")
            var failures = 0
            for f in 0..<item.filters {
                for oy in 0..<convolution.outputHeight {
                    for ox in 0..<convolution.outputWidth {
                        var sum = Double(bias[f]), bound = 0.0, magnitude = 0.0
                        for c in 0..<item.c {
                            for ky in 0..<item.size {
                                for kx in 0..<item.size {
                                    let y = oy * item.stride + ky - item.pad, x = ox * item.stride + kx - item.pad
                                    guard y >= 0, y < item.h, x >= 0, x < item.w else { continue }
                                    let i = f * k + (c * item.size + ky) * item.size + kx
                                    let value = Double(input[(c * item.h + y) * item.w + x]), w = Double(weights[i])
                                    let quantizedWeight = Double(packed.scales[f]) * Double(quantizedWeights[i])
                                    sum += w * value
                                    bound += Double(packed.scales[f]) / 2 * abs(value) + abs(quantizedWeight) * Double(quantization.scale) / 2
                                    magnitude += abs(w * value)
                                }
                            }
                        }
                        bound += 1e-5 * (magnitude + abs(Double(bias[f])))
                        let expected = Self.activate(sum, item.activation)
                        let actual = Double(single.floats[(f * convolution.outputHeight + oy) * convolution.outputWidth + ox])
                        if !(abs(actual - expected) <= bound) {
                            failures += 1
                            if failures <= 3 { XCTFail("\(item) filter \(f) (\(oy), \(ox)): int8 \(actual) vs float \(expected), bound \(bound)") }
                        }
                    }
                }
            }
        }
    }

    // MARK: im2col

    /// The 8-bit im2col + GEMM of a convolution equals a direct integer convolution in which
    /// the zero padding reads the zero point, over kernel sizes, strides and paddings.
    func testIm2colGEMMIsTheDirectIntegerConvolution() {
        let cases: [(c: Int, h: Int, w: Int, filters: Int, size: Int, stride: Int, pad: Int)] = [
            (3, 13, 11, 8, 3, 1, 1), (4, 9, 9, 6, 3, 2, 1), (8, 7, 5, 5, 1, 1, 0), (2, 10, 12, 3, 5, 3, 0),
            (5, 6, 6, 17, 3, 1, 0), (1, 1, 1, 2, 1, 1, 0), (3, 8, 9, 9, 2, 2, 0), (16, 26, 26, 33, 3, 1, 1),
            (2, 70, 70, 3, 3, 2, 1), (3, 40, 41, 4, 3, 1, 2),  // several 512-column chunks, padding wider than 1
        ]
        let zeroPoint: Int32 = 37
        for (index, item) in cases.enumerated() {
            var random = SplitMix64(seed: UInt64(300 + index))
            let input = (0..<item.c * item.h * item.w).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let k = item.c * item.size * item.size
            let limit = Int64(IntegerKernels.narrowLimit)
            let weights = (0..<item.filters * k).map { _ in Int8(Int64(random.next() % UInt64(2 * limit + 1)) - limit) }
            let outH = Int8Im2col.outputExtent(item.h, size: item.size, stride: item.stride, padding: item.pad)
            let outW = Int8Im2col.outputExtent(item.w, size: item.size, stride: item.stride, padding: item.pad)
            let n = outH * outW
            var packed = [UInt8](repeating: 0xAA, count: Int8Im2col.packedBytes(depth: k, columns: n))
            input.withUnsafeBufferPointer { source in
                packed.withUnsafeMutableBufferPointer {
                    Int8Im2col.im2col(source.baseAddress!, channels: item.c, height: item.h, width: item.w, size: item.size,
                                      stride: item.stride, padding: item.pad, zeroPoint: zeroPoint, into: $0.baseAddress!)
                }
            }
            let packedWeights = Int8PackedWeights(quantized: weights, scales: [Float](repeating: 1, count: item.filters),
                                                  rows: item.filters, depth: k)
            for variant in CPUFeatures.current.supportedIntegerKernels {
                var output = [Int32](repeating: 0, count: item.filters * n)
                packed.withUnsafeBufferPointer { b in
                    output.withUnsafeMutableBufferPointer {
                        Int8GEMM.multiply(packedWeights, b.baseAddress!, columns: n, into: $0.baseAddress!, rowStride: n, kernels: variant)
                    }
                }
                var mismatches = 0
                for f in 0..<item.filters {
                    for oy in 0..<outH {
                        for ox in 0..<outW {
                            var sum: Int32 = 0
                            for c in 0..<item.c {
                                for ky in 0..<item.size {
                                    for kx in 0..<item.size {
                                        let y = oy * item.stride + ky - item.pad, x = ox * item.stride + kx - item.pad
                                        let value = y >= 0 && y < item.h && x >= 0 && x < item.w
                                            ? Int32(input[(c * item.h + y) * item.w + x]) : zeroPoint
                                        sum += Int32(weights[f * k + (c * item.size + ky) * item.size + kx]) * value
                                    }
                                }
                            }
                            if output[(f * outH + oy) * outW + ox] != sum { mismatches += 1 }
                        }
                    }
                }
                XCTAssertEqual(mismatches, 0, "\(variant) \(item): outputs that differ from the direct convolution")
            }
        }
    }
}
