import Foundation

/// `[dropout]`: identity at inference (Darknet's layer shares its input's buffer).
public struct DropoutSpec: Sendable, Equatable {
    /// Training drop probability (`probability`, default 0.5); unused at inference.
    public var probability: Float
}

extension DropoutSpec: WeightlessLayer {
    static let sectionNames = ["dropout"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> DropoutSpec {
        let probability = try r.float("probability", default: 0.5)
        guard (0...1).contains(probability) else {
            throw r.error("probability", .invalidValue(value: String(probability), expected: "a probability in 0...1"))
        }
        for key in ["dropblock", "dropblock_size_rel", "dropblock_size_abs"] where r.has(key) {
            throw r.error(key, .unsupported("DropBlock (\(key))"))
        }
        return DropoutSpec(probability: probability)
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning { LayerPlanning(output: context.input) }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "dropout       p = %.2f               %4d  ->  %4d", probability, layer.inputShape.count,
                      layer.outputShape.count)
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        pass.output(of: layer).update(from: pass.input(of: layer), count: layer.outputShape.count)
    }
}
