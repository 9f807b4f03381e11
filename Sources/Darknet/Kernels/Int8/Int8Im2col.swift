import CDarknetKernels

/// Activations for the int8 GEMM: the `UInt8` B operand in the packed layout of
/// `darknet_int8.h` (strips of 16 columns, quads of k), built from an 8-bit CHW tensor by an
/// im2col that writes that layout directly, or by packing a K x N matrix as it is (1x1/1).
package enum Int8Im2col {
    /// Bytes of packed B for `depth` (K) x `columns` (N).
    package static func packedBytes(depth: Int, columns: Int) -> Int { swiftdarknet_int8_packed_b_bytes(depth, columns) }

    /// Packs a row-major `depth x columns` matrix (row stride `rowStride`) into `packed`
    /// (`packedBytes` bytes).
    @inline(__always)
    package static func pack(_ matrix: UnsafePointer<UInt8>, depth: Int, columns: Int, rowStride: Int,
                             into packed: UnsafeMutablePointer<UInt8>) {
        precondition(rowStride >= columns, "Int8Im2col.pack: row stride \(rowStride) < \(columns) columns")
        swiftdarknet_int8_pack_b(matrix, depth, columns, rowStride, packed)
    }

    /// Darknet's im2col of a `channels x height x width` 8-bit tensor for a `size x size`
    /// convolution with `stride` and `padding`, into `packed` (`packedBytes(depth: channels *
    /// size * size, columns: outputHeight * outputWidth)` bytes). Padding takes `zeroPoint`,
    /// the code of 0.0. Output size as Darknet's: `(height + 2 padding - size) / stride + 1`.
    @inline(__always)
    package static func im2col(_ input: UnsafePointer<UInt8>, channels: Int, height: Int, width: Int, size: Int,
                               stride: Int, padding: Int, zeroPoint: Int32, into packed: UnsafeMutablePointer<UInt8>) {
        precondition(size >= 1 && stride >= 1 && padding >= 0, "Int8Im2col.im2col: bad geometry")
        precondition((0...255).contains(zeroPoint), "Int8Im2col.im2col: zero point \(zeroPoint) outside 0...255")
        swiftdarknet_int8_im2col_packed(input, channels, height, width, size, stride, padding, UInt8(zeroPoint),
                                        outputExtent(height, size: size, stride: stride, padding: padding),
                                        outputExtent(width, size: size, stride: stride, padding: padding), packed)
    }

    /// Darknet's output height or width.
    package static func outputExtent(_ extent: Int, size: Int, stride: Int, padding: Int) -> Int {
        (extent + 2 * padding - size) / stride + 1
    }
}
