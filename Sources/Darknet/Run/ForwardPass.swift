import Dispatch

/// One forward pass over an arena: each planned layer's step, in order. Plans and parameters
/// are read-only; all memory was allocated by the session.
struct ForwardPass {
    let network: Network
    let layout: ArenaLayout
    let arena: UnsafeMutablePointer<Float>
    /// The shared workspace, followed by each thread's scratch.
    let workspace: UnsafeMutablePointer<Float>
    /// The session's recurrent state (`NetworkPlan.stateCount` floats).
    let state: UnsafeMutablePointer<Float>
    /// How every kernel is spread over the session's threads.
    let split: ThreadSplit

    var plan: NetworkPlan { network.plan }
    /// The vector kernels the plan picked, which every layer runs.
    var kernels: VectorKernels { network.plan.vectorKernels }

    /// The buffers a convolution kernel runs on, from `input` to `output`: this pass's workspace,
    /// scratch, threads and kernels.
    func convolutionBuffers(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                            pooled: UnsafeMutablePointer<Float>? = nil) -> ConvolutionBuffers {
        ConvolutionBuffers(input: input, output: output, workspace: workspace, scratch: threadScratch,
                           scratchStride: scratchStride, split: split, kernels: kernels, pooled: pooled)
    }

    func run(layerNanoseconds: UnsafeMutablePointer<UInt64>? = nil) {
        for (layer, step) in zip(network.plan.layers, network.steps) {
            guard let layerNanoseconds else {
                step.run(layer, in: self)
                continue
            }
            let start = DispatchTime.now().uptimeNanoseconds
            step.run(layer, in: self)
            layerNanoseconds[layer.index] = DispatchTime.now().uptimeNanoseconds - start
        }
    }

    /// The output buffer of layer `index` (`-1` is the network input).
    func buffer(of index: Int) -> UnsafeMutablePointer<Float> {
        arena + (index < 0 ? layout.inputOffset : layout.outputOffsets[index])
    }

    /// What `layer` reads: the previous layer's output (or the network input).
    func input(of layer: LayerPlan) -> UnsafeMutablePointer<Float> { buffer(of: layer.index - 1) }

    /// Where `layer` writes.
    func output(of layer: LayerPlan) -> UnsafeMutablePointer<Float> { buffer(of: layer.index) }

    /// The state `layer` carries between passes.
    func state(of layer: LayerPlan) -> UnsafeMutablePointer<Float> { state + plan.stateOffsets[layer.index] }

    /// Thread 0's scratch; thread `w`'s is `scratchStride * w` floats further.
    var threadScratch: UnsafeMutablePointer<Float> { workspace + plan.workspaceCount }
    var scratchStride: Int { plan.threadScratchCount }

    /// The quantization of layer `index`'s output when it is 8-bit codes: int8 convolution
    /// `index` writes codes for the int8 convolution after it, or after the max pool after it
    /// (`NetworkPlan.int8CodeOutputs`, `int8CodePools`), in that reader's input quantization,
    /// and such a pool pools them. Nil when the output is floats: the plan does not allow codes,
    /// or this session keeps the output (or that of the pool, or of the convolution before it).
    func codeQuantization(ofOutput index: Int) -> Int8TensorQuantization? {
        guard index >= 0 else { return nil }
        let chain: ClosedRange<Int>
        if plan.int8CodePools.contains(index) {
            chain = index - 1...index
        } else if plan.int8CodeOutputs.contains(index) {
            chain = plan.int8CodePools.contains(index + 1) ? index...index + 1 : index...index
        } else {
            return nil
        }
        guard !chain.contains(where: layout.retained.contains) else { return nil }
        return plan.layers[chain.upperBound + 1].int8?.input
    }

    /// Whether maxpool layer `index` is computed by the convolution before it: the plan allows it
    /// and this session does not keep that convolution's output.
    func fusesMaxpool(_ index: Int) -> Bool {
        plan.fusibleMaxpools.contains(index) && !layout.retained.contains(index - 1)
    }

    /// For the convolution before shortcut layer `index`, what it adds to its output when it
    /// computes that shortcut too (`ArenaLayout.fusedShortcuts`): the shortcut's other source.
    func fusedShortcutResidual(_ index: Int) -> UnsafePointer<Float>? {
        layout.fusedShortcuts.contains(index) ? UnsafePointer(buffer(of: plan.layers[index].sources[1])) : nil
    }
}
