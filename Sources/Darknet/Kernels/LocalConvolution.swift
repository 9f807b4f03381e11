/// Darknet's `[local]` layer: a convolution whose filters are not shared, every output location
/// having a filter bank of its own, and whose bias is per output value.
///
/// Weights are in the order `load_weights` reads them after the biases: location-major,
/// `weights[(location * filters + filter) * patch + k]` with `patch = channels * size * size`
/// and `k = (channel * size + ky) * size + kx` (im2col's row order); biases are
/// `biases[filter * locations + location]` (one per output value, CHW). Locations are row-major
/// over the output grid.
enum LocalConvolution {
    /// Output height or width as Darknet's `local_out_height` computes it: with `pad` set,
    /// `(input - 1) / stride + 1` whatever the kernel size, else `(input - size) / stride + 1`.
    /// (Darknet pads the input by `pad` pixels on each side, the flag's value itself, so the two
    /// agree only for `size == 2 * pad + 1`; ``forward`` requires that.)
    static func outputExtent(input: Int, size: Int, stride: Int, pad: Int) -> Int {
        (pad != 0 ? input - 1 : input - size) / stride + 1
    }

    /// Weights a layer stores: `filters * channels * size * size` per output location.
    static func weightCount(channels: Int, filters: Int, size: Int, outHeight: Int, outWidth: Int) -> Int {
        filters * channels * size * size * outHeight * outWidth
    }

    /// One forward pass over a CHW `input` (`channels x height x width`) into `output`
    /// (`filters x outHeight x outWidth`), as Darknet computes it: the biases, plus for each
    /// location the product of its filter bank with its input patch (one GEMV with the BLAS,
    /// writing the location's column of `output` in place), then `activation`.
    /// `BLAS.ensureLoaded()` must have succeeded.
    ///
    /// - Parameter patch: scratch for one location's input patch, `channels * size * size` floats.
    static func forward(input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
                        filters: Int, size: Int, stride: Int, pad: Int,
                        weights: UnsafePointer<Float>, biases: UnsafePointer<Float>, activation: Activation,
                        patch: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, kernels: VectorKernels) {
        let outHeight = outputExtent(input: height, size: size, stride: stride, pad: pad)
        let outWidth = outputExtent(input: width, size: size, stride: stride, pad: pad)
        precondition(pad == 0 || size == 2 * pad + 1, "[local] with pad needs size = 2 * pad + 1")
        let locations = outHeight * outWidth
        let patchSize = channels * size * size
        output.update(from: biases, count: filters * locations)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                gatherPatch(input, channels: channels, height: height, width: width, size: size,
                            top: oy * stride - pad, left: ox * stride - pad, into: patch)
                let location = oy * outWidth + ox
                // output[f * locations + location] += bank[f] . patch, for every filter f
                BLAS.sgemm(m: filters, n: 1, k: patchSize, a: weights + location * filters * patchSize, lda: patchSize,
                           b: patch, ldb: 1, beta: 1, c: output + location, ldc: locations)
            }
        }
        kernels.activate(output, count: filters * locations, activation: activation)
    }

    /// The `size x size` window at (`top`, `left`) of every channel, in im2col row order
    /// (channel, kernel row, kernel column), zeros outside the image.
    @inline(__always)
    private static func gatherPatch(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, size: Int,
                                    top: Int, left: Int, into patch: UnsafeMutablePointer<Float>) {
        var k = 0
        for c in 0..<channels {
            let plane = input + c * height * width
            for ky in 0..<size {
                let iy = top + ky
                let inside = iy >= 0 && iy < height
                let row = plane + (inside ? iy * width : 0)
                for kx in 0..<size {
                    let ix = left + kx
                    patch[k] = inside && ix >= 0 && ix < width ? row[ix] : 0
                    k += 1
                }
            }
        }
    }
}
