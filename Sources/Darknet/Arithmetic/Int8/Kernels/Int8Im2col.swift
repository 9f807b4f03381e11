import CDarknetKernels

/// Activations for the int8 GEMM: the `UInt8` B operand in the packed layout of
/// `CDarknetKernels/integer.h` (strips of 16 columns, quads of k), built from an 8-bit CHW tensor by an
/// im2col that writes that layout directly, or by packing a K x N matrix as it is (1x1/1).
package enum Int8Im2col {
    /// Bytes of packed B for `depth` (K) x `columns` (N).
    package static func packedBytes(depth: Int, columns: Int) -> Int { swiftdarknet_int8_packed_b_bytes(depth, columns) }

    /// Quads of k (groups of 4 rows of B) of a `depth`-deep matrix: the unit `quads:` ranges
    /// count in, so threads can split packing.
    package static func quads(depth: Int) -> Int { (depth + 3) / 4 }

    /// Packs a row-major `depth x columns` matrix (row stride `rowStride`) into `packed`
    /// (`packedBytes` bytes): its quads of k in `quads` (default all).
    @inline(__always)
    package static func pack(_ matrix: UnsafePointer<UInt8>, depth: Int, columns: Int, rowStride: Int,
                             into packed: UnsafeMutablePointer<UInt8>, quads: Range<Int>? = nil) {
        precondition(rowStride >= columns, "Int8Im2col.pack: row stride \(rowStride) < \(columns) columns")
        let quads = quads ?? 0..<Self.quads(depth: depth)
        swiftdarknet_int8_pack_b(matrix, depth, columns, rowStride, packed, quads.lowerBound, quads.upperBound)
    }

    /// Darknet's im2col of a `channels x height x width` 8-bit tensor for a `size x size`
    /// convolution with `stride` and `padding`, into `packed` (`packedBytes(depth: channels *
    /// size * size, columns: outputHeight * outputWidth)` bytes). Padding takes `zeroPoint`,
    /// the code of 0.0. Output size as Darknet's: `(height + 2 padding - size) / stride + 1`.
    /// Writes the quads of k in `quads` (default all).
    @inline(__always)
    package static func im2col(_ input: UnsafePointer<UInt8>, channels: Int, height: Int, width: Int, size: Int,
                               stride: Int, padding: Int, zeroPoint: Int32, into packed: UnsafeMutablePointer<UInt8>,
                               quads: Range<Int>? = nil) {
        let quads = quads ?? 0..<Self.quads(depth: channels * size * size)
        precondition(size >= 1 && stride >= 1 && padding >= 0, "Int8Im2col.im2col: bad geometry")
        precondition((0...255).contains(zeroPoint), "Int8Im2col.im2col: zero point \(zeroPoint) outside 0...255")
        swiftdarknet_int8_im2col_packed(input, channels, height, width, size, stride, padding, UInt8(zeroPoint),
                                        outputExtent(height, size: size, stride: stride, padding: padding),
                                        outputExtent(width, size: size, stride: stride, padding: padding), packed,
                                        quads.lowerBound, quads.upperBound)
    }

    /// Darknet's output height or width.
    package static func outputExtent(_ extent: Int, size: Int, stride: Int, padding: Int) -> Int {
        (extent + 2 * padding - size) / stride + 1
    }
}
