import Foundation

/// `[lstm]`: Darknet's long short-term memory layer, eight linear `[connected]` sub-layers (`wf`,
/// `wi`, `wg`, `wo` on the previous output, `uf`, `ui`, `ug`, `uo` on the input):
/// `f = σ(wf(h) + uf(x))`, `i = σ(wi(h) + ui(x))`, `g = tanh(wg(h) + ug(x))`,
/// `o = σ(wo(h) + uo(x))`, cell `c = f ⊙ c + i ⊙ g`, output and new `h = o ⊙ tanh(c)`. The cell
/// and `h` are carried from one forward pass to the next (one time step each). Both Darknets
/// compute it alike; they store the sub-layers in different orders (`storedParameters`).
public struct LSTMSpec: Sendable, Equatable {
    /// Values of the cell, of `h` and of the output (`output`, default 1).
    public var outputs: Int
    /// Batch norm in every sub-layer (`batch_normalize`), folded at load.
    public var batchNormalize: Bool
}

extension LSTMSpec: DenseRecurrentLayer {
    static let sectionNames = ["lstm"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> LSTMSpec {
        LSTMSpec(outputs: try r.int("output", default: 1, minimum: 1),
                 batchNormalize: try r.bool("batch_normalize", default: false))
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let inputs = context.input.count
        // BLAS takes the input size (GEMM's k) as a 32-bit int.
        guard inputs < Int(Int32.max) else { throw context.fail(.sizeOverflow) }
        return try planning(context, threadScratch: try context.product(5, outputs), state: try context.product(2, outputs))
    }

    /// The original's `load_weights` order: `wi`, `wf`, `wo`, `wg` (`output -> output`), then
    /// `ui`, `uf`, `uo`, `ug` (`inputs -> output`), each a `[connected]` block. AlexeyAB's fork
    /// stores the same shapes as `wf`, `wi`, `wg`, `wo`, `uf`, `ui`, `ug`, `uo`; `loadStep`
    /// reads that order in an AlexeyAB-dialect network (`storedParameters` names the original's).
    static func sublayers(inputs: Int, outputs: Int, dialect: DarknetDialect) -> [(name: String, inputs: Int)] {
        let gates = switch dialect {
        case .original: ["i", "f", "o", "g"]
        case .alexeyAB: ["f", "i", "g", "o"]
        }
        return gates.map { ("w" + $0, outputs) } + gates.map { ("u" + $0, inputs) }
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        let (order, blocks) = try readSublayers(layer, from: &reader, context: context)
        let named = Dictionary(uniqueKeysWithValues: zip(order.map(\.name), blocks))
        return LSTMStep(blocks: ["wf", "wi", "wg", "wo", "uf", "ui", "ug", "uo"].map { named[$0]! })
    }
}

/// One time step of an `[lstm]` layer (`RecurrentCells.lstmStep`) on the session's state.
struct LSTMStep: LayerStep {
    /// `wf`, `wi`, `wg`, `wo`, `uf`, `ui`, `ug`, `uo`.
    let blocks: [DenseBlock]

    var parameterArrays: [[Float]] { blocks.flatMap(\.parameterArrays) }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let linear = blocks.map { $0.sublayer(.linear, kernels: pass.kernels) }
        RecurrentCells.lstmStep(pass.input(of: layer), wf: linear[0], wi: linear[1], wg: linear[2], wo: linear[3],
                                uf: linear[4], ui: linear[5], ug: linear[6], uo: linear[7],
                                state: pass.state(of: layer), scratch: pass.threadScratch, output: pass.output(of: layer))
    }
}
