/// One `[connected]` sub-layer of a recurrent layer: `outputs x inputs` weights (row-major, batch
/// norm already folded in, as the library loads `[connected]` layers), biases and activation.
struct ConnectedSublayer {
    let inputs: Int
    let outputs: Int
    let weights: UnsafePointer<Float>
    let biases: UnsafePointer<Float>
    let activation: Activation

    /// `output = activation(weights * input + biases)` (one GEMM with the BLAS).
    func forward(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        BLAS.sgemm(m: outputs, n: 1, k: inputs, a: weights, lda: inputs, b: input, ldb: 1, c: output, ldc: 1)
        for i in 0..<outputs { output[i] += biases[i] }
        activate(output, count: outputs, activation: activation)
    }
}

/// The arithmetic of one time step of Darknet's recurrent layers at inference
/// (`forward_rnn_layer`, `forward_gru_layer` with `train = 0` and one step per forward), with
/// the state in a caller-owned buffer of `outputs` floats (zeros before the first step) that
/// each step reads and updates. `BLAS.ensureLoaded()` must have succeeded.
enum RecurrentCells {
    /// `[rnn]`: sub-layers `input` (inputs -> outputs), `self` and `output` (outputs -> outputs),
    /// all with the layer's activation (and batch norm, folded):
    /// `state = input(x) + self(state)` (plus the old state with `shortcut`), then
    /// `output = output(state)`.
    ///
    /// - Parameter scratch: `2 * outputs` floats.
    static func rnnStep(_ x: UnsafePointer<Float>, input: ConnectedSublayer, self selfLayer: ConnectedSublayer,
                        output outputLayer: ConnectedSublayer, shortcut: Bool, state: UnsafeMutablePointer<Float>,
                        scratch: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let n = input.outputs
        precondition(selfLayer.inputs == n && selfLayer.outputs == n && outputLayer.inputs == n)
        let fromInput = scratch, fromState = scratch + n
        input.forward(x, into: fromInput)
        selfLayer.forward(state, into: fromState)
        // Darknet: the state is zeroed (or kept, with shortcut), then both responses are added.
        for i in 0..<n {
            let kept: Float = shortcut ? state[i] : 0
            state[i] = kept + fromInput[i] + fromState[i]
        }
        outputLayer.forward(state, into: output)
    }

    /// `[gru]`: linear sub-layers `uz`, `ur`, `uh` on the input and `wz`, `wr`, `wh` on the
    /// state: `z = σ(uz(x) + wz(s))`, `r = σ(ur(x) + wr(s))`,
    /// `h = σ(uh(x) + wh(r ⊙ s))` (tanh with `tanh=1`), `output = z ⊙ s + (1 - z) ⊙ h`
    /// (Darknet's `weighted_sum_cpu`: z weighs the *old* state), and the state becomes the output.
    ///
    /// - Parameter scratch: `4 * outputs` floats.
    static func gruStep(_ x: UnsafePointer<Float>, uz: ConnectedSublayer, ur: ConnectedSublayer, uh: ConnectedSublayer,
                        wz: ConnectedSublayer, wr: ConnectedSublayer, wh: ConnectedSublayer, tanh: Bool,
                        state: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                        output: UnsafeMutablePointer<Float>) {
        let n = uz.outputs
        let z = scratch, r = scratch + n, h = scratch + 2 * n, other = scratch + 3 * n
        wz.forward(state, into: other)
        uz.forward(x, into: z)
        for i in 0..<n { z[i] += other[i] }
        wr.forward(state, into: other)
        ur.forward(x, into: r)
        for i in 0..<n { r[i] += other[i] }
        activate(z, count: n, activation: .logistic)
        activate(r, count: n, activation: .logistic)
        // r now becomes the forgotten state r ⊙ s.
        for i in 0..<n { r[i] *= state[i] }
        wh.forward(r, into: other)
        uh.forward(x, into: h)
        for i in 0..<n { h[i] += other[i] }
        activate(h, count: n, activation: tanh ? .tanh : .logistic)
        for i in 0..<n {
            output[i] = z[i] * state[i] + (1 - z[i]) * h[i]
            state[i] = output[i]
        }
    }
}
