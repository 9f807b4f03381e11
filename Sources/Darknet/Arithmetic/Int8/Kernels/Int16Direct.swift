import CDarknetKernels

/// One stride-1 or stride-2 convolution (groups 1, square kernel) with 16-bit activations and weights, the
/// core of `Int16DirectConvolution`: the int8 direct path (`Int8Direct`) with each
/// pixel's 4 bytes holding a pair of channels' int16 codes instead of a quad's 8-bit ones
/// (`CDarknetKernels/integer.h`). The input is quantized symmetrically as it is laid out
/// (`Int16Quantization`); the weights per filter, with as many bits (`Int16PackedWeights`). The layout splits
/// over threads by channel pairs, the GEMM by 16-column strips: the result does not depend on
/// the thread count.
package struct Int16Direct: IntegerDirectCore, Equatable {
    package let channels, height, width, filters, size, padding, stride: Int

    package static let lanes = 2

    package init(channels: Int, height: Int, width: Int, filters: Int, size: Int, padding: Int, stride: Int = 1) {
        (self.channels, self.height, self.width, self.filters, self.size, self.padding, self.stride) =
            (channels, height, width, filters, size, padding, stride)
        checkGeometry()
    }

    /// Largest K: codes of at least 8 bits' reach (`Int16Quantization.limit(depth:)` >= 127),
    /// and the packed weights' bytes within the int8 GEMM's bound.
    package static let maximumDepth = min(Int(Int32.max) / (127 * 127), Int8GEMM.maximumDepth / 2)

    /// Whether the path computes a convolution of this geometry: stride 1 or 2 (1x1 unpadded
    /// included: the 16-bit codes need the layout anyway), over whole pairs of channels.
    package static func suits(size: Int, stride: Int, padding: Int, channels: Int) -> Bool {
        (stride == 1 || stride == 2) && channels % 2 == 0
            && channels * size * size <= maximumDepth && size <= Int(SWIFTDARKNET_INT8_DIRECT_MAX_SIZE)
    }

    /// Bytes of the padded layout `run` writes into its workspace.
    package var layoutBytes: Int { swiftdarknet_int16_direct_layout_bytes(channels, height, width, padding, stride) }
    /// Bytes of each thread's panel (K in bytes: 2 per value).
    package var panelBytes: Int { swiftdarknet_int8_direct_panel_bytes(2 * depth, outputHeight * outputWidth) }

    /// Float output (`filters x outputHeight x outputWidth`) after `epilogue`, from CHW floats
    /// quantized with `quantization`. `layout` holds `layoutBytes`; `panels` holds `panelBytes`
    /// per worker, `panelStride` apart.
    package func run(input: UnsafePointer<Float>, quantization: Int16Quantization, weights: Int16PackedWeights,
                     epilogue: Int8Epilogue, output: UnsafeMutablePointer<Float>, layout: UnsafeMutablePointer<UInt8>,
                     panels: UnsafeMutableRawPointer, panelStride: Int, split: ThreadSplit, kernels: IntegerKernels,
                     vectorKernels: VectorKernels) {
        precondition(weights.packed.rows == filters && weights.depth == depth,
                     "Int16Direct: weights are \(weights.packed.rows) x \(weights.depth), expected \(filters) x \(depth)")
        precondition(quantization.limit <= Int16Quantization.limit(depth: depth),
                     "Int16Direct: codes up to \(quantization.limit) could overflow K = \(depth)")
        let layOut = vectorKernels.functions.pointee.int16_direct_layout
        split(units) { range, _ in
            layOut(input, channels, height, width, padding, stride, quantization.inverseScale, quantization.limit, layout,
                   range.lowerBound, range.upperBound)
        }
        guard let direct = kernels.functions.pointee.direct16 else {
            preconditionFailure("the \(kernels) integer kernels have no 16-bit direct convolution")
        }
        epilogue.withDescriptor(output: nil) { descriptor in
            multiply(weights.packed, layout: layout, panels: panels, panelStride: panelStride,
                     split: split) { a, input, panel, range in
                direct(a, filters, input, Int32(SWIFTDARKNET_INT8_OUTPUT_F32), descriptor, output, panel,
                       range.lowerBound, range.upperBound)
            }
        }
    }
}

/// Symmetric 16-bit quantization of a tensor: `code = clamp(rint(x * inverseScale), -limit,
/// limit)`, `x ≈ scale * code`.
package struct Int16Quantization: Sendable, Equatable {
    /// Real value of one code step (> 0).
    package let scale: Float
    /// `1 / scale`, what the kernels multiply by.
    package let inverseScale: Float
    /// The largest code magnitude.
    package let limit: Int32

    /// Covers `[-magnitude, magnitude]` with codes up to `limit` (a magnitude of 0 gets scale 1).
    package init(magnitude: Float, limit: Int32) {
        precondition(limit >= 1 && limit <= 32767, "Int16Quantization: limit must be in 1...32767")
        let scale = magnitude > 0 && magnitude.isFinite ? magnitude / Float(limit) : 1
        self.scale = scale
        self.inverseScale = 1 / scale
        self.limit = limit
    }

    /// The largest code for activations and for weights in a dot product of length `depth`
    /// whose int32 sum must stay exact (`depth * limit² < 2^31`): the same for both, so each
    /// keeps as many bits (YOLOv3-tiny's 3x3 layers on 16 and 32 channels: 3861 and 2730,
    /// about 12 bits), and at most 32767.
    package static func limit(depth: Int) -> Int32 {
        let bound = Double(Int32.max) / Double(max(depth, 1))
        return Int32(min(32767, max(1, (bound.squareRoot()).rounded(.down))))
    }
}

/// A convolution's weights for the 16-bit GEMM, quantized and packed once at load: symmetric
/// int16 per filter up to `Int16Quantization.limit(depth:)`, packed as their bytes
/// (`Int8PackedWeights` with K in bytes).
package struct Int16PackedWeights: Sendable {
    /// The packed bytes (`packed.depth` is 2 x `depth`; its row sums are not used).
    package let packed: Int8PackedWeights
    /// K in int16 values.
    package let depth: Int
    /// `w[m, k] ≈ scales[m] * q[m, k]`.
    package var scales: [Float] { packed.scales }

    /// Quantizes float weights (`rows x depth`, in the path's k order, batch norm folded) per
    /// row and packs them.
    package init(weights: [Float], rows: Int, depth: Int) {
        let quantized = Self.quantizeRows(weights, rows: rows, columns: depth, limit: Int16Quantization.limit(depth: depth))
        var bytes = [Int8](repeating: 0, count: rows * depth * 2)
        for (i, value) in quantized.values.enumerated() {
            let wide = UInt16(bitPattern: value)
            bytes[2 * i] = Int8(bitPattern: UInt8(wide & 0xFF))
            bytes[2 * i + 1] = Int8(bitPattern: UInt8(wide >> 8))
        }
        packed = Int8PackedWeights(quantized: bytes, scales: quantized.scales, rows: rows, depth: 2 * depth)
        self.depth = depth
    }

    /// Each row of `weights` (`rows x columns`) quantized to `-limit...limit` with its own scale
    /// `max |row| / limit` (0 for a row of zeros), rounding half to even: `w ≈ scale[row] * q`.
    package static func quantizeRows(_ weights: [Float], rows: Int, columns: Int, limit: Int32)
        -> (values: [Int16], scales: [Float]) {
        precondition(weights.count == rows * columns, "Int16PackedWeights: \(weights.count) weights for \(rows) x \(columns)")
        var values = [Int16](repeating: 0, count: weights.count), scales = [Float](repeating: 0, count: rows)
        let bound = Float(limit)
        for row in 0..<rows {
            let slice = weights[row * columns..<(row + 1) * columns]
            let largest = slice.reduce(Float(0)) { max($0, abs($1)) }
            guard largest > 0 else { continue }
            let scale = largest / bound
            scales[row] = scale
            for (i, w) in zip(slice.indices, slice) {
                values[i] = Int16(min(max((w / scale).rounded(.toNearestOrEven), -bound), bound))
            }
        }
        return (values, scales)
    }

    /// The epilogue's factors for activations quantized with `input`: no zero point to
    /// compensate, `scale[m] = scales[m] * input.scale`.
    package func requantization(input: Int16Quantization) -> Int8Requantization {
        Int8Requantization(compensation: [Int32](repeating: 0, count: packed.rows), scale: scales.map { $0 * input.scale })
    }
}
