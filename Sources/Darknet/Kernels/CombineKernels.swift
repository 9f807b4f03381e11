import CDarknetKernels

extension VectorKernels {
    /// Element-wise combinations of several layers' outputs: the shortcut, the
    /// products of `[sam]` and `[scale_channels]`, and the channel slices of a grouped `[route]`.

    /// `output = alpha * previous`: the first step of a multi-source shortcut.
    @inline(__always)
    package func scaledCopy(_ previous: UnsafePointer<Float>, count: Int, alpha: Float, into output: UnsafeMutablePointer<Float>) {
        if alpha == 1 {
            output.update(from: previous, count: count)
        } else {
            for i in 0..<count { output[i] = alpha * previous[i] }
        }
    }

    /// `output += beta * source`: one more source of a multi-source shortcut (AlexeyAB sums the
    /// previous output first, then each source in turn).
    @inline(__always)
    package func accumulate(_ source: UnsafePointer<Float>, count: Int, beta: Float, into output: UnsafeMutablePointer<Float>) {
        if beta == 1 {
            for i in 0..<count { output[i] += source[i] }
        } else {
            for i in 0..<count { output[i] += beta * source[i] }
        }
    }

    /// `output += source`, element-wise: a fused shortcut's sum (`weighted_sum`'s with weights
    /// 1, so the bits of the separate pass).
    @inline(__always)
    package func addInPlace(_ source: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) {
        functions.pointee.weighted_sum(output, source, count, 1, 1, output)
    }

    /// `[sam]`: `output = activation(a * b)`, element-wise.
    @inline(__always)
    package func multiply(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int, activation: Activation,
                          into output: UnsafeMutablePointer<Float>) {
        for i in 0..<count { output[i] = a[i] * b[i] }
        activate(output, count: count, activation: activation)
    }

    /// `[scale_channels]`: every value of channel `c` of `from` times `scale[c]`.
    @inline(__always)
    package func scaleByChannel(_ from: UnsafePointer<Float>, scale: UnsafePointer<Float>, channels: Int, planeSize: Int,
                               into output: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            let factor = scale[c]
            let source = from + c * planeSize, destination = output + c * planeSize
            for i in 0..<planeSize { destination[i] = source[i] * factor }
        }
    }

    /// `[scale_channels] scale_wh=1`: every channel of `from` times the one `plane`.
    @inline(__always)
    package func scaleByPlane(_ from: UnsafePointer<Float>, plane: UnsafePointer<Float>, channels: Int, planeSize: Int,
                             into output: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            let source = from + c * planeSize, destination = output + c * planeSize
            for i in 0..<planeSize { destination[i] = source[i] * plane[i] }
        }
    }

    /// `output = activation(alpha * previous + beta * from)`, element-wise.
    @inline(__always)
    package func shortcut(_ previous: UnsafePointer<Float>, _ from: UnsafePointer<Float>, count: Int,
                  alpha: Float, beta: Float, activation: Activation, into output: UnsafeMutablePointer<Float>) {
        functions.pointee.weighted_sum(previous, from, count, alpha, beta, output)
        activate(output, count: count, activation: activation)
    }
}
