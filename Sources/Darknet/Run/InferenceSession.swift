import Dispatch

/// Why a forward pass or an output read was refused.
public enum InferenceError: DarknetError, Equatable, Sendable {
    /// The input does not have the network's `channels * height * width` values.
    case inputSizeMismatch(expected: Int, actual: Int)
    /// No such layer.
    case layerOutOfRange(index: Int, layerCount: Int)
    /// The layer's output was not retained by this session (see `LayerSelection`).
    case outputNotRetained(index: Int)
    /// `forward` has not run yet.
    case noForwardPass
    /// A profiling buffer does not have one slot per layer.
    case timingSlotsMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .inputSizeMismatch(let expected, let actual): "input has \(actual) values, the network expects \(expected)"
        case .layerOutOfRange(let index, let count): "layer \(index) does not exist (the network has \(count) layers)"
        case .outputNotRetained(let index): "layer \(index)'s output is not retained by this session"
        case .noForwardPass: "no forward pass has run yet"
        case .timingSlotsMismatch(let expected, let actual): "\(actual) timing slots for \(expected) layers"
        }
    }
}

/// One layer's output tensor, copied out of a session.
public struct Tensor: Sendable, Equatable {
    public let shape: TensorShape
    /// Planar CHW values.
    public let values: [Float]
}

extension Tensor: CustomStringConvertible {
    /// Its shape, as `Tensor(13 x 13 x 255)`, not the values.
    public var description: String { "Tensor(\(shape))" }
}

/// The memory one forward pass needs: the activation arena and the im2col workspace.
///
/// A session belongs to one thread at a time; create one per thread to run a shared
/// `Network` concurrently. `forward` allocates nothing.
public final class InferenceSession {
    /// The network this session runs.
    public let network: Network
    /// Where each output lives in the arena.
    public let layout: ArenaLayout
    private let arena: UnsafeMutableBufferPointer<Float>
    private let workspace: UnsafeMutableBufferPointer<Float>
    /// What recurrent layers carry from one pass to the next, zero until the first.
    private let state: UnsafeMutableBufferPointer<Float>
    /// What the last pass computed: nothing yet, every layer (`forward`), or only the detection
    /// heads (`forwardHeads`).
    private var lastPass = PassExtent.none
    /// Threads one forward pass may use.
    public let threads: Int
    /// The helper threads (`threads - 1`), which spin briefly between the steps of a pass.
    private let split: ThreadSplit
    /// How many of `threads` each pass runs on; nil: all of them, always.
    private var policy: ThreadPolicy?
    /// The threads the latest forward pass ran on: `threads`, or 1 while the session finds that
    /// one thread is faster (another process keeping a core busy; see `init(network:retaining:threads:)`).
    public private(set) var lastPassThreads: Int

    /// Allocates the arena and workspace for `network`, keeping `retaining` readable after
    /// each pass (detection heads are always kept).
    /// - Parameters:
    ///   - network: the loaded network the session runs.
    ///   - selection: the layers whose outputs stay readable after a pass (`output(ofLayer:)`).
    ///   - threads: threads a forward pass may use (at least 1). Results do not
    ///     depend on it. With more than one, the session keeps `threads - 1` helper threads,
    ///     which spin for about a millisecond after each step of a pass before they block. A
    ///     session of several threads times its passes and, now and then, runs one at a different
    ///     thread count (`ThreadPolicy`): while another process keeps a core busy, so that one
    ///     thread is faster, its passes run on one thread, until a probe finds all of them faster again.
    public convenience init(network: Network, retaining selection: LayerSelection = .detection, threads: Int = 1) {
        self.init(network: network, retaining: selection, split: ThreadSplit(threads: max(1, threads)), adaptive: true)
    }

    /// A session whose passes spread their steps with `split` (tests pass one that cuts every
    /// step into its finest pieces); with `adaptive`, the thread count of each pass is chosen by
    /// a `ThreadPolicy`, else every pass runs on all of `split`'s threads.
    package init(network: Network, retaining selection: LayerSelection = .detection, split: ThreadSplit,
                 adaptive: Bool = false) {
        self.network = network
        self.threads = split.threads
        self.split = split
        self.policy = adaptive && split.threads > 1 ? ThreadPolicy(maximum: split.threads) : nil
        self.lastPassThreads = split.threads
        self.layout = ArenaLayout(plan: network.plan, retaining: selection)
        // Float is trivial: every buffer is written by its layer before anything reads it,
        // so the memory is not zero-filled up front.
        arena = .allocate(capacity: max(layout.count, 1))
        workspace = .allocate(capacity: max(network.plan.workspaceCount + self.threads * network.plan.threadScratchCount, 1))
        state = .allocate(capacity: max(network.plan.stateCount, 1))
        state.initialize(repeating: 0)
    }

    deinit {
        arena.deallocate()
        workspace.deallocate()
        state.deallocate()
    }

    /// Bytes this session holds (arena and workspace).
    public var allocatedBytes: Int { (arena.count + workspace.count + state.count) * MemoryLayout<Float>.size }

    /// Forgets what recurrent layers (`[rnn]`, `[gru]`) carried from earlier passes: the next pass
    /// starts a new sequence, as the first pass of a new session does.
    public func resetState() {
        state.update(repeating: 0)
    }

    /// Runs the network on a planar CHW input of the network's size.
    public func forward(_ input: [Float]) throws(InferenceError) {
        try input.withUnsafeBufferPointer { buffer in Result { () throws(InferenceError) in try forward(buffer) } }.get()
    }

    /// Runs the network on a planar CHW input of the network's size.
    public func forward(_ input: UnsafeBufferPointer<Float>) throws(InferenceError) {
        try run(input, layerNanoseconds: nil)
    }

    /// Runs the network and records each layer's wall time in nanoseconds (for profiling).
    /// `layerNanoseconds` must hold one value per layer.
    public func forward(_ input: [Float], layerNanoseconds: inout [UInt64]) throws(InferenceError) {
        guard layerNanoseconds.count == network.plan.layers.count else {
            throw .timingSlotsMismatch(expected: network.plan.layers.count, actual: layerNanoseconds.count)
        }
        try input.withUnsafeBufferPointer { buffer in
            layerNanoseconds.withUnsafeMutableBufferPointer { times in
                Result { () throws(InferenceError) in try run(buffer, layerNanoseconds: times.baseAddress) }
            }
        }.get()
    }

    private func run(_ input: UnsafeBufferPointer<Float>, layerNanoseconds: UnsafeMutablePointer<UInt64>?) throws(InferenceError) {
        let expected = network.plan.inputShape.count
        guard input.count == expected, let source = input.baseAddress else {
            throw .inputSizeMismatch(expected: expected, actual: input.count)
        }
        (arena.baseAddress! + layout.inputOffset).update(from: source, count: expected)
        BLAS.setThreads(1)  // the forward pass splits work across its own threads
        let passThreads = policy?.threadsForNextPass() ?? threads
        let start = DispatchTime.now().uptimeNanoseconds
        pass(split: passThreads < threads ? split.limited(to: passThreads) : split).run(layerNanoseconds: layerNanoseconds)
        policy?.record(threads: passThreads, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
        lastPassThreads = passThreads
        lastPass = .allLayers
    }

    /// Runs only the detection heads, each on the input `inputs` gives it in layer order (the
    /// output of the layer before the head, computed by another runtime), and leaves their outputs
    /// where `forward` leaves them for `DetectionDecoder`. No other layer runs: until the next
    /// `forward`, only the heads' outputs can be read.
    /// - Throws: `ArgumentError` naming `headInputs` when there is not one input per head, or
    ///   `headInputs[i]` when an input is not its head's input size.
    func forwardHeads(_ inputs: [[Float]]) throws(ArgumentError) {
        let heads = network.plan.detectionHeads
        let layers = heads.map { String($0.index) }.joined(separator: ", ")
        try ArgumentError.require(inputs.count == heads.count, "headInputs", inputs.count == 1 ? "1 tensor" : "\(inputs.count) tensors",
                                  expected: "\(heads.count), one per detection head (layers \(layers))")
        for (n, (head, input)) in zip(heads, inputs).enumerated() {
            let shape = head.inputShape
            try ArgumentError.require(input.count == shape.count, "headInputs[\(n)]", "\(input.count) values",
                                      expected: "\(shape.count), the \(shape) input of layer \(head.index)")
        }
        let pass = pass(split: split)
        for (head, input) in zip(heads, inputs) {
            input.withUnsafeBufferPointer { pass.input(of: head).update(from: $0.baseAddress!, count: $0.count) }
            network.steps[head.index].run(head, in: pass)
        }
        lastPass = .detectionHeads
    }

    /// A pass over this session's memory, its steps spread by `split`.
    private func pass(split: ThreadSplit) -> ForwardPass {
        ForwardPass(network: network, layout: layout, arena: arena.baseAddress!, workspace: workspace.baseAddress!,
                    state: state.baseAddress!, split: split)
    }

    /// Reads a retained layer's output without copying. The buffer is valid only inside `body`
    /// and until the next `forward`.
    public func withOutput<R>(ofLayer index: Int, _ body: (UnsafeBufferPointer<Float>, TensorShape) throws -> R) throws -> R {
        let plan = network.plan
        guard plan.layers.indices.contains(index) else { throw InferenceError.layerOutOfRange(index: index, layerCount: plan.layers.count) }
        guard layout.retained.contains(index) else { throw InferenceError.outputNotRetained(index: index) }
        guard lastPass == .allLayers || lastPass == .detectionHeads && plan.layers[index].spec.kind.isDetectionHead else {
            throw InferenceError.noForwardPass
        }
        let shape = plan.layers[index].outputShape
        return try body(UnsafeBufferPointer(start: arena.baseAddress! + layout.outputOffsets[index], count: shape.count), shape)
    }

    /// A copy of a retained layer's output.
    public func output(ofLayer index: Int) throws -> Tensor {
        try withOutput(ofLayer: index) { values, shape in Tensor(shape: shape, values: Array(values)) }
    }
}

/// The layers an `InferenceSession`'s last pass computed.
private enum PassExtent {
    case none, allLayers, detectionHeads
}

extension InferenceSession: CustomStringConvertible {
    /// The network's file and the session's threads, as `InferenceSession(yolov3-tiny.cfg, 2 threads)`.
    public var description: String {
        "InferenceSession(\(network.plan.file), \(counted(threads, "thread")))"
    }
}
