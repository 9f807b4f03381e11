import CDarknetKernels

/// What the int8 GEMM does to each int32 sum before it is stored: requantize to real values
/// (`(acc - compensation[m]) * scale[m] + bias[m]`), then one of Darknet's activations.
package struct Int8Epilogue: Sendable {
    package let requantization: Int8Requantization
    /// One bias per row, or nil for none.
    package let bias: [Float]?
    package let activation: Activation

    /// The activations the epilogue fuses (others stay in float, after the GEMM).
    package static func fuses(_ activation: Activation) -> Bool { kernelCode(activation) != nil }

    package init(requantization: Int8Requantization, bias: [Float]?, activation: Activation) {
        precondition(Self.fuses(activation), "Int8Epilogue: \(activation) is not fused into the int8 GEMM")
        precondition(bias.map { $0.count == requantization.scale.count } ?? true, "Int8Epilogue: bias count != rows")
        precondition(requantization.compensation.count == requantization.scale.count, "Int8Epilogue: row counts differ")
        self.requantization = requantization
        self.bias = bias
        self.activation = activation
    }

    static func kernelCode(_ activation: Activation) -> Int32? {
        switch activation {
        case .linear: Int32(SWIFTDARKNET_INT8_LINEAR)
        case .leaky: Int32(SWIFTDARKNET_INT8_LEAKY)
        case .relu: Int32(SWIFTDARKNET_INT8_RELU)
        case .logistic: Int32(SWIFTDARKNET_INT8_LOGISTIC)
        case .mish: Int32(SWIFTDARKNET_INT8_MISH)
        case .swish: Int32(SWIFTDARKNET_INT8_SWISH)
        default: nil
        }
    }

    /// The C descriptor, valid inside `body` only.
    func withDescriptor<R>(output: Int8TensorQuantization?, _ body: (UnsafePointer<swiftdarknet_int8_epilogue>) -> R) -> R {
        requantization.compensation.withUnsafeBufferPointer { compensation in
            requantization.scale.withUnsafeBufferPointer { scale in
                (bias ?? []).withUnsafeBufferPointer { bias in
                    var descriptor = swiftdarknet_int8_epilogue(
                        compensation: compensation.baseAddress, scale: scale.baseAddress,
                        bias: self.bias == nil ? nil : bias.baseAddress, activation: Self.kernelCode(activation)!,
                        output_scale: output?.scale ?? 1, output_zero_point: output?.zeroPoint ?? 0)
                    return body(&descriptor)
                }
            }
        }
    }
}

/// `C = A B` for int8 weights A (`Int8PackedWeights`, M x K) and packed `UInt8` activations B
/// (`Int8Im2col`, K x N), exact int32 sums, then raw, float or requantized 8-bit output,
/// row-major (row m at `output + m * rowStride`: a CHW tensor for a convolution). `range`
/// picks columns of N (from a multiple of 16) and `rows` rows of M (from a multiple of 8), so
/// threads can split one GEMM either way; the defaults are all of N and M. The running CPU must
/// execute `kernels` (`CPUFeatures.runs`); the default is its fastest set. Every set gives
/// identical results.
package enum Int8GEMM {
    /// Largest K: the worst-case sum, 255 · 128 · K, must fit an int32.
    package static let maximumDepth = Int(SWIFTDARKNET_INT8_MAX_K)

    /// The raw int32 sums `Σ_k a[m, k] b[k, n]` (for tests and for checking the epilogue).
    package static func multiply(_ weights: Int8PackedWeights, _ activations: UnsafePointer<UInt8>, columns n: Int,
                                 into output: UnsafeMutablePointer<Int32>, rowStride: Int,
                                 range: Range<Int>? = nil, rows: Range<Int>? = nil, kernels: IntegerKernels = .native) {
        let range = check(weights, n, rowStride, range, kernels), rows = check(weights, rows)
        weights.withPacked { a in
            kernels.functions(for: weights).pointee.gemm(a, activations, weights.rows, n, weights.depth,
                                                         Int32(SWIFTDARKNET_INT8_OUTPUT_S32), nil, output, rowStride,
                                                         range.lowerBound, range.upperBound, rows.lowerBound, rows.upperBound)
        }
    }

    /// Float outputs after `epilogue`.
    package static func multiply(_ weights: Int8PackedWeights, _ activations: UnsafePointer<UInt8>, columns n: Int,
                                 epilogue: Int8Epilogue, into output: UnsafeMutablePointer<Float>, rowStride: Int,
                                 range: Range<Int>? = nil, rows: Range<Int>? = nil, kernels: IntegerKernels = .native) {
        multiply(weights, activations, columns: n, epilogue: epilogue,
                 kind: Int32(SWIFTDARKNET_INT8_OUTPUT_F32), output: UnsafeMutableRawPointer(output), outputQuantization: nil,
                 rowStride: rowStride, range: range, rows: rows, kernels: kernels)
    }

    /// 8-bit outputs after `epilogue`, quantized with `quantization` (exactly the codes
    /// `quantization.quantize` gives the float outputs), so the next int8 layer reads them as
    /// they are.
    package static func multiply(_ weights: Int8PackedWeights, _ activations: UnsafePointer<UInt8>, columns n: Int,
                                 epilogue: Int8Epilogue, into output: UnsafeMutablePointer<UInt8>,
                                 quantization: Int8TensorQuantization, rowStride: Int,
                                 range: Range<Int>? = nil, rows: Range<Int>? = nil, kernels: IntegerKernels = .native) {
        multiply(weights, activations, columns: n, epilogue: epilogue,
                 kind: Int32(SWIFTDARKNET_INT8_OUTPUT_U8), output: UnsafeMutableRawPointer(output),
                 outputQuantization: quantization, rowStride: rowStride, range: range, rows: rows, kernels: kernels)
    }

    /// Both epilogue overloads: `kind` says what `output` holds (float, or 8-bit codes of
    /// `outputQuantization`).
    private static func multiply(_ weights: Int8PackedWeights, _ activations: UnsafePointer<UInt8>, columns n: Int,
                                 epilogue: Int8Epilogue, kind: Int32, output: UnsafeMutableRawPointer,
                                 outputQuantization: Int8TensorQuantization?, rowStride: Int, range: Range<Int>?,
                                 rows: Range<Int>?, kernels: IntegerKernels) {
        let range = check(weights, n, rowStride, range, kernels), rows = check(weights, rows)
        precondition(epilogue.requantization.scale.count == weights.rows, "Int8GEMM: epilogue rows != weight rows")
        weights.withPacked { a in
            epilogue.withDescriptor(output: outputQuantization) { descriptor in
                kernels.functions(for: weights).pointee.gemm(a, activations, weights.rows, n, weights.depth, kind, descriptor,
                                                             output, rowStride, range.lowerBound, range.upperBound,
                                                             rows.lowerBound, rows.upperBound)
            }
        }
    }

    /// Multiply-adds of one call (M · N · K); twice this is the operation count.
    package static func multiplyAdds(_ weights: Int8PackedWeights, columns n: Int) -> Int { weights.rows * weights.depth * n }

    private static func check(_ weights: Int8PackedWeights, _ n: Int, _ rowStride: Int, _ range: Range<Int>?,
                              _ kernels: IntegerKernels) -> Range<Int> {
        precondition(kernels.runsHere, "Int8GEMM: this CPU does not run the \(kernels) integer kernels")
        precondition(n >= 1 && rowStride >= n, "Int8GEMM: \(n) columns with row stride \(rowStride)")
        let range = range ?? 0..<n
        precondition(range.lowerBound >= 0 && range.upperBound <= n, "Int8GEMM: columns \(range) outside 0..<\(n)")
        precondition(range.lowerBound % Int(SWIFTDARKNET_INT8_STRIP) == 0, "Int8GEMM: column range must start at a multiple of 16")
        return range
    }

    private static func check(_ weights: Int8PackedWeights, _ rows: Range<Int>?) -> Range<Int> {
        let rows = rows ?? 0..<weights.rows
        precondition(rows.lowerBound >= 0 && rows.upperBound <= weights.rows, "Int8GEMM: rows \(rows) outside 0..<\(weights.rows)")
        precondition(rows.lowerBound % 8 == 0, "Int8GEMM: row range must start at a multiple of 8")
        return rows
    }
}
