import CDarknetKernels

/// A convolution's weights for the int8 GEMM, quantized and packed once at load: `rows`
/// filters (M) by `depth` (K = channels / groups * size * size) int8 values, symmetric per
/// filter, in the packed-A layout of `CDarknetKernels/integer.h` (64-byte aligned), with each filter's scale
/// and the sum of its int8 values (for the activation zero point's compensation).
package final class Int8PackedWeights: @unchecked Sendable {  // immutable after init
    /// Output rows (filters), M.
    package let rows: Int
    /// Inner dimension, K.
    package let depth: Int
    /// `w[m, k] ≈ scales[m] * q[m, k]`.
    package let scales: [Float]
    /// `rowSums[m] = Σ_k q[m, k]`.
    package let rowSums: [Int32]
    /// The largest `|q[m, k]|` (which AVX2 kernel runs: `IntegerKernels.functions(for:)`).
    package let largestMagnitude: Int32
    /// Bytes of packed storage.
    package let byteCount: Int
    private let storage: UnsafeMutableRawPointer

    /// Quantizes float weights (`rows x depth`, row-major, batch norm already folded) per row
    /// to -limit...limit (`Int8Quantization.quantizeRows`) and packs them.
    package convenience init(weights: [Float], rows: Int, depth: Int, limit: Int32 = 127) {
        let quantized = Int8Quantization.quantizeRows(weights, rows: rows, columns: depth, limit: limit)
        self.init(quantized: quantized.values, scales: quantized.scales, rows: rows, depth: depth)
    }

    /// Packs weights already quantized (`rows x depth` int8, row-major) with their row scales.
    package init(quantized: [Int8], scales: [Float], rows: Int, depth: Int) {
        precondition(rows >= 1 && depth >= 1, "Int8PackedWeights: empty \(rows) x \(depth) weights")
        precondition(depth <= Int(SWIFTDARKNET_INT8_MAX_K), "Int8PackedWeights: K = \(depth) exceeds the int32 sum bound \(SWIFTDARKNET_INT8_MAX_K)")
        precondition(quantized.count == rows * depth && scales.count == rows, "Int8PackedWeights: sizes do not match \(rows) x \(depth)")
        self.rows = rows
        self.depth = depth
        self.scales = scales
        let byteCount = swiftdarknet_int8_packed_a_bytes(rows, depth)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        var sums = [Int32](repeating: 0, count: rows)
        quantized.withUnsafeBufferPointer { q in
            swiftdarknet_int8_pack_a(q.baseAddress!, rows, depth, depth, storage.assumingMemoryBound(to: Int8.self))
            sums.withUnsafeMutableBufferPointer { swiftdarknet_int8_row_sums(q.baseAddress!, rows, depth, depth, $0.baseAddress!) }
        }
        rowSums = sums
        largestMagnitude = quantized.reduce(0) { max($0, abs(Int32($1))) }
        self.byteCount = byteCount
        self.storage = storage
    }

    deinit { storage.deallocate() }

    /// What a layer's packed weights take, in floats (the unit plans count memory in): the packed
    /// bytes of `rows x depthBytes`, rounded up, then per row the weights' scale and sum and the
    /// epilogue's compensation and scale.
    package static func plannedFloats(rows: Int, depthBytes: Int) -> Int {
        (swiftdarknet_int8_packed_a_bytes(rows, depthBytes) + 3) / 4 + 4 * rows
    }

    /// The packed bytes (valid inside `body` only).
    package func withPacked<R>(_ body: (UnsafePointer<Int8>) throws -> R) rethrows -> R {
        try body(UnsafePointer(storage.assumingMemoryBound(to: Int8.self)))
    }

    /// The per-row factors that turn this GEMM's int32 sums over activations quantized with
    /// `input` back into real values: `(acc - compensation[m]) * scale[m]`, where
    /// `compensation[m] = zeroPoint * rowSums[m]` and `scale[m] = scales[m] * input.scale`.
    package func requantization(input: Int8TensorQuantization) -> Int8Requantization {
        Int8Requantization(compensation: rowSums.map { $0 * input.zeroPoint },
                           scale: scales.map { $0 * input.scale })
    }
}

/// Per-row factors of the int8 GEMM's epilogue (see `Int8PackedWeights.requantization`).
package struct Int8Requantization: Sendable, Equatable {
    package let compensation: [Int32]
    package let scale: [Float]
}
