/// One `[connected]` sub-layer of a recurrent layer: `outputs x inputs` weights (row-major, batch
/// norm already folded in, as the library loads `[connected]` layers), biases and activation.
struct ConnectedSublayer {
    let inputs: Int
    let outputs: Int
    let weights: UnsafePointer<Float>
    let biases: UnsafePointer<Float>
    let activation: Activation
    let kernels: VectorKernels

    /// `output = activation(weights * input + biases)` (one GEMM with the BLAS).
    func forward(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        BLAS.sgemm(m: outputs, n: 1, k: inputs, a: weights, lda: inputs, b: input, ldb: 1, c: output, ldc: 1)
        for i in 0..<outputs { output[i] += biases[i] }
        kernels.activate(output, count: outputs, activation: activation)
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
        uz.kernels.activate(z, count: n, activation: .logistic)
        uz.kernels.activate(r, count: n, activation: .logistic)
        // r now becomes the forgotten state r ⊙ s.
        for i in 0..<n { r[i] *= state[i] }
        wh.forward(r, into: other)
        uh.forward(x, into: h)
        for i in 0..<n { h[i] += other[i] }
        uz.kernels.activate(h, count: n, activation: tanh ? .tanh : .logistic)
        for i in 0..<n {
            output[i] = z[i] * state[i] + (1 - z[i]) * h[i]
            state[i] = output[i]
        }
    }

    /// `[lstm]`: linear sub-layers `wf`, `wi`, `wg`, `wo` on the previous output `h` and `uf`,
    /// `ui`, `ug`, `uo` on the input: `f = σ(wf(h) + uf(x))`, `i = σ(wi(h) + ui(x))`,
    /// `g = tanh(wg(h) + ug(x))`, `o = σ(wo(h) + uo(x))`, then the cell `c = f ⊙ c + i ⊙ g` and
    /// `h = o ⊙ tanh(c)`, which is the output (Darknet's `forward_lstm_layer`, no peepholes).
    ///
    /// - Parameters:
    ///   - state: `2 * outputs` floats, the cell `c` then the previous output `h`.
    ///   - scratch: `5 * outputs` floats.
    static func lstmStep(_ x: UnsafePointer<Float>, wf: ConnectedSublayer, wi: ConnectedSublayer, wg: ConnectedSublayer,
                         wo: ConnectedSublayer, uf: ConnectedSublayer, ui: ConnectedSublayer, ug: ConnectedSublayer,
                         uo: ConnectedSublayer, state: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                         output: UnsafeMutablePointer<Float>) {
        let n = wf.outputs
        let cell = state, hidden = state + n
        let f = scratch, i = scratch + n, g = scratch + 2 * n, o = scratch + 3 * n, other = scratch + 4 * n
        // Every gate reads the old h, so all four are computed before h changes.
        func gate(_ into: UnsafeMutablePointer<Float>, _ w: ConnectedSublayer, _ u: ConnectedSublayer, _ activation: Activation) {
            w.forward(hidden, into: into)
            u.forward(x, into: other)
            for k in 0..<n { into[k] += other[k] }
            wf.kernels.activate(into, count: n, activation: activation)
        }
        gate(f, wf, uf, .logistic)
        gate(i, wi, ui, .logistic)
        gate(g, wg, ug, .tanh)
        gate(o, wo, uo, .logistic)
        for k in 0..<n { cell[k] = f[k] * cell[k] + i[k] * g[k] }
        for k in 0..<n { hidden[k] = cell[k] }
        wf.kernels.activate(hidden, count: n, activation: .tanh)
        for k in 0..<n {
            hidden[k] *= o[k]
            output[k] = hidden[k]
        }
    }
}
