/// The forward pass of a YOLO-style head (`[yolo]`, `[Gaussian_yolo]`): the output starts as a
/// copy of the input, `entries` planes per anchor, and element-wise steps then run on some of
/// each anchor's planes. Threads split the output; a piece applies each step only to its own
/// part of the step's planes.
struct AnchorPlanes {
    /// The layer's output.
    let output: UnsafeMutablePointer<Float>
    /// The values of `output` this piece owns.
    let span: Range<Int>
    /// Values in one plane (width × height).
    let planeSize: Int
    /// Planes per anchor.
    let entries: Int
    let kernels: VectorKernels

    /// Copies the layer's input to its output and runs `steps` on each piece of it.
    static func forward(_ layer: LayerPlan, in pass: ForwardPass, entries: Int, _ steps: (AnchorPlanes) -> Void) {
        let input = pass.input(of: layer), output = pass.output(of: layer), shape = layer.outputShape
        pass.split(shape.count, minimumPiece: 1 << 14) { span, _ in
            (output + span.lowerBound).update(from: input + span.lowerBound, count: span.count)
            steps(AnchorPlanes(output: output, span: span, planeSize: shape.planeSize, entries: entries, kernels: pass.kernels))
        }
    }

    /// The logistic on planes `planes` of `anchor`.
    func logistic(_ planes: Range<Int>, of anchor: Int) {
        let part = piece(of: planes, of: anchor)
        if !part.isEmpty { kernels.activate(output + part.lowerBound, count: part.count, activation: .logistic) }
    }

    /// AlexeyAB's `scale_x_y` on planes `planes` of `anchor`: `v * scale - (scale - 1) / 2`, the
    /// offset computed in double as `scal_add_cpu(n, scale, -0.5*(scale - 1), ...)` does.
    func scaleXY(_ planes: Range<Int>, of anchor: Int, scale: Float) {
        let part = piece(of: planes, of: anchor)
        guard !part.isEmpty else { return }
        let offset = Float(-0.5 * (Double(scale) - 1))
        let values = output + part.lowerBound
        for i in 0..<part.count { values[i] = values[i] * scale + offset }
    }

    /// The indices of planes `planes` of `anchor` that lie in this piece.
    private func piece(of planes: Range<Int>, of anchor: Int) -> Range<Int> {
        let base = anchor * entries * planeSize
        return ((base + planes.lowerBound * planeSize)..<(base + planes.upperBound * planeSize)).clamped(to: span)
    }
}
