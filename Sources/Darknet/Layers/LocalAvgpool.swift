import Foundation

/// `[local_avgpool]` (AlexeyAB): the mean over each window of a max pool's geometry (same keys
/// and defaults as `[maxpool]`), counting only the window cells inside the input.
public struct LocalAvgpoolSpec: Sendable, Equatable {
    /// The window: `size`, `stride_x`, `stride_y`, `padding` as `[maxpool]` reads them.
    public var window: MaxpoolSpec
}

extension LocalAvgpoolSpec: WeightlessLayer {
    static let sectionNames = ["local_avgpool"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> LocalAvgpoolSpec {
        let window = try MaxpoolSpec.read(&r, index: index)
        // Beyond this the first or last window lies wholly in the padding: Darknet divides 0 by 0.
        guard window.padding <= 2 * window.size - 2 else {
            throw r.error("padding", .invalidValue(value: String(window.padding),
                                                   expected: "at most 2 * size - 2 = \(2 * window.size - 2) (no window wholly in the padding)"))
        }
        return LocalAvgpoolSpec(window: window)
    }

    var needsAlexeyAB: Bool { true }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        LayerPlanning(output: try window.plan(context).output)
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "avg         %2d x%2d /%2d  ", window.size, window.size, window.strideX) + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let input = pass.input(of: layer), output = pass.output(of: layer)
        let inShape = layer.inputShape, outShape = layer.outputShape
        pass.split(inShape.channels, minimumPiece: 4) { channels, _ in
            pass.kernels.localAveragePool(input + channels.lowerBound * inShape.planeSize, channels: channels.count,
                             height: inShape.height, width: inShape.width, size: window.size, strideX: window.strideX,
                             strideY: window.strideY, padding: window.padding, outHeight: outShape.height,
                             outWidth: outShape.width, into: output + channels.lowerBound * outShape.planeSize)
        }
    }
}
