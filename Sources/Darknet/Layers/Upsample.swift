import Foundation

/// `[upsample]`: nearest-neighbour enlargement.
public struct UpsampleSpec: Sendable, Equatable {
    /// Enlargement factor (`stride`, default 2).
    public var stride: Int
    /// Multiplier applied to every value (`scale`, default 1).
    public var scale: Float
}

extension UpsampleSpec: WeightlessLayer {
    static let sectionNames = ["upsample"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> UpsampleSpec {
        r.ignore(TrainingKeys.upsample)
        let stride = try r.int("stride", default: 2, minimum: 1)
        return UpsampleSpec(stride: stride, scale: try r.float("scale", default: 1))
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input
        let height = input.height.multipliedReportingOverflow(by: stride)
        let width = input.width.multipliedReportingOverflow(by: stride)
        guard !height.overflow, !width.overflow else { throw context.fail(.sizeOverflow) }
        return LayerPlanning(output: TensorShape(channels: input.channels, height: height.partialValue, width: width.partialValue))
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "upsample          %2dx  ", stride) + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let input = pass.input(of: layer), output = pass.output(of: layer)
        let inShape = layer.inputShape, outShape = layer.outputShape
        pass.split(inShape.channels, minimumPiece: 8) { channels, _ in
            upsample(input + channels.lowerBound * inShape.planeSize, channels: channels.count,
                     height: inShape.height, width: inShape.width, stride: stride, scale: scale,
                     into: output + channels.lowerBound * outShape.planeSize)
        }
    }
}
