/// `[avgpool]` / `[avg]`: global average pooling, `W x H x C` to `1 x 1 x C`.
public struct AvgpoolSpec: Sendable, Equatable {}

extension AvgpoolSpec: WeightlessLayer {
    static let sectionNames = ["avgpool", "avg"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> AvgpoolSpec { AvgpoolSpec() }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        LayerPlanning(output: TensorShape(channels: context.input.channels, height: 1, width: 1))
    }

    func summary(_ layer: LayerPlan) -> String {
        "avg                     " + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        averagePool(pass.input(of: layer), channels: layer.inputShape.channels, planeSize: layer.inputShape.planeSize,
                    into: pass.output(of: layer))
    }
}
