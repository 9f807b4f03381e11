/// `[cost]`: a training loss. At inference it passes its input through; the network's
/// output is the last layer that is not a cost layer, as in Darknet.
public struct CostSpec: Sendable, Equatable {}

extension CostSpec: WeightlessLayer {
    static let sectionNames = ["cost"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> CostSpec {
        r.ignore(TrainingKeys.cost)
        return CostSpec()
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning { LayerPlanning(output: context.input) }

    func summary(_ layer: LayerPlan) -> String {
        "cost                                           \(layer.inputShape.count)"
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        pass.output(of: layer).update(from: pass.input(of: layer), count: layer.outputShape.count)
    }
}

extension TrainingKeys {
    /// `[cost]`: every key configures the training loss.
    static let cost: Set<String> = ["type", "scale", "ratio", "noobject_scale", "thresh"]
}
