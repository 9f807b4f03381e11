import CDarknetKernels

/// How a float tensor maps to `UInt8` codes: `x = scale * (code - zeroPoint)`, one scale and
/// zero point per tensor (asymmetric, so a ReLU/leaky output spends its codes where its values
/// are). 0.0 has an exact code, the zero point, which is what an 8-bit im2col pads with.
package struct Int8TensorQuantization: Sendable, Equatable {
    /// Real value of one code step (> 0).
    package let scale: Float
    /// The code of 0.0, in 0...255.
    package let zeroPoint: Int32

    package init(scale: Float, zeroPoint: Int32) {
        precondition(scale > 0 && scale.isFinite, "Int8TensorQuantization: scale must be positive and finite")
        precondition((0...255).contains(zeroPoint), "Int8TensorQuantization: zero point must be in 0...255")
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// The parameters that cover `[minimum, maximum]` (widened to include 0) with 256 codes:
    /// `scale = (max - min) / 255`, `zeroPoint = rint(-min / scale)`. A range of one point gets
    /// scale 1 (every code then dequantizes near 0).
    package init(minimum: Float, maximum: Float) {
        let low = min(minimum, 0), high = max(maximum, 0)
        let scale = high > low ? (high - low) / 255 : 1
        let zero = (-low / scale).rounded(.toNearestOrEven)
        self.init(scale: scale, zeroPoint: Int32(min(max(zero, 0), 255)))
    }

    /// The real value of `code`.
    @inline(__always)
    package func dequantize(_ code: UInt8) -> Float { scale * Float(Int32(code) - zeroPoint) }

    /// Quantizes `count` floats: `rint(x * (1 / scale)) + zeroPoint` (the product by the float
    /// reciprocal, half to even), saturating to 0...255; NaN to the zero point, the code of 0.0.
    @inline(__always)
    package func quantize(_ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<UInt8>,
                          kernels: VectorKernels = .native) {
        kernels.functions.pointee.quantize_u8(values, count, scale, zeroPoint, codes)
    }

    /// The codes of `values`.
    package func quantize(_ values: [Float], kernels: VectorKernels = .native) -> [UInt8] {
        guard !values.isEmpty else { return [] }
        var codes = [UInt8](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer { quantize(source.baseAddress!, count: values.count, into: $0.baseAddress!, kernels: kernels) }
        }
        return codes
    }
}

/// Symmetric signed quantization: weights per output row, and whole tensors with one scale.
package enum Int8Quantization {
    /// Each row of `weights` (rows x columns, row-major) quantized to -limit...limit (1...127)
    /// with its own scale `max |row| / limit` (0 for a row of zeros): `w ≈ scale[row] * q`.
    package static func quantizeRows(_ weights: [Float], rows: Int, columns: Int,
                                     limit: Int32 = 127) -> (values: [Int8], scales: [Float]) {
        precondition((1...127).contains(limit), "Int8Quantization.quantizeRows: limit \(limit) outside 1...127")
        precondition(weights.count == rows * columns, "Int8Quantization.quantizeRows: \(weights.count) weights for \(rows) x \(columns)")
        guard rows > 0, columns > 0 else { return ([], [Float](repeating: 0, count: rows)) }
        var values = [Int8](repeating: 0, count: weights.count), scales = [Float](repeating: 0, count: rows)
        weights.withUnsafeBufferPointer { w in
            values.withUnsafeMutableBufferPointer { q in
                scales.withUnsafeMutableBufferPointer { s in
                    swiftdarknet_quantize_rows_symmetric(w.baseAddress!, rows, columns, limit, q.baseAddress!, s.baseAddress!)
                }
            }
        }
        return (values, scales)
    }

    /// `values` quantized with one `scale` to -128...127 (round half to even, saturating; NaN to 0).
    package static func quantizeSigned(_ values: [Float], scale: Float) -> [Int8] {
        precondition(scale > 0 && scale.isFinite, "Int8Quantization.quantizeSigned: scale must be positive and finite")
        guard !values.isEmpty else { return [] }
        var codes = [Int8](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer { swiftdarknet_quantize_s8(source.baseAddress!, values.count, scale, $0.baseAddress!) }
        }
        return codes
    }
}
