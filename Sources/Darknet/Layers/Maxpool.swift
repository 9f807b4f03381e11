import Foundation

/// `[maxpool]` / `[max]`.
public struct MaxpoolSpec: Sendable, Equatable {
    /// Window side (`size`, default `stride`).
    public var size: Int
    /// Horizontal step (`stride_x`, default `stride`, which defaults to 1).
    public var strideX: Int
    /// Vertical step (`stride_y`, default `stride`).
    public var strideY: Int
    /// Total padding (`padding`, default `size - 1`); windows start at `-padding / 2`.
    public var padding: Int

    /// A pool with the same step on both axes unless `strideX`/`strideY` are given.
    public init(size: Int, stride: Int, strideX: Int? = nil, strideY: Int? = nil, padding: Int) {
        self.size = size
        self.strideX = strideX ?? stride
        self.strideY = strideY ?? stride
        self.padding = padding
    }
}

extension MaxpoolSpec: WeightlessLayer {
    static let sectionNames = ["maxpool", "max"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> MaxpoolSpec {
        r.ignore(TrainingKeys.maxpool)
        let stride = try r.int("stride", default: 1, minimum: 1)
        let strideX = try r.int("stride_x", default: stride, minimum: 1)
        let strideY = try r.int("stride_y", default: stride, minimum: 1)
        let size = try r.int("size", default: stride, minimum: 1)
        let padding = try r.int("padding", default: size - 1, minimum: 0)
        try r.requireNeutral("maxpool_depth", 0, feature: "maxpool over channels")
        try r.requireNeutral("antialiasing", 0, feature: "antialiasing")
        try r.requireNeutral("maxpool_zero_nonmax", 0, feature: "maxpool_zero_nonmax")
        r.ignore(["out_channels"])  // read by AlexeyAB only together with maxpool_depth
        return MaxpoolSpec(size: size, stride: stride, strideX: strideX, strideY: strideY, padding: padding)
    }

    var needsAlexeyAB: Bool { strideX != strideY }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input
        guard size <= input.width + padding, size <= input.height + padding else {
            throw context.fail(.windowLargerThanInput(window: size, input: input, padding: padding))
        }
        let output = TensorShape(channels: input.channels,
                                 height: (input.height + padding - size) / strideY + 1,
                                 width: (input.width + padding - size) / strideX + 1)
        // Windows wider than 2 are computed separably (a row pass into `channels x inputHeight x
        // outputWidth`, then a column pass), which makes the SPP pools (5, 9, 13 at stride 1)
        // cost `O(size)` per output instead of `O(size²)`.
        let workspace = MaxpoolKernel.usesRowPass(size: size)
            ? try context.product(input.height, output.width, input.channels) : 0
        return LayerPlanning(output: output, workspace: workspace)
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "max         %2d x%2d /%2d  ", size, size, strideX) + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        if pass.fusesMaxpool(layer.index) { return }  // computed with the convolution before it
        let input = pass.input(of: layer), output = pass.output(of: layer)
        let inShape = layer.inputShape, outShape = layer.outputShape
        if pass.codeQuantization(ofOutput: layer.index) != nil {  // 8-bit codes between two int8 convolutions
            runOnCodes(UnsafeRawPointer(input).assumingMemoryBound(to: UInt8.self),
                       into: UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self), layer, split: pass.split,
                       kernels: pass.kernels)
            return
        }
        let scratchPlane = inShape.height * outShape.width
        pass.split(inShape.channels, minimumPiece: 4) { channels, _ in
            pass.kernels.maxpool(input + channels.lowerBound * inShape.planeSize, channels: channels.count,
                    height: inShape.height, width: inShape.width,
                    size: size, strideX: strideX, strideY: strideY, padding: padding,
                    outHeight: outShape.height, outWidth: outShape.width,
                    into: output + channels.lowerBound * outShape.planeSize,
                    scratch: layer.workspaceCount > 0 ? pass.workspace + channels.lowerBound * scratchPlane : nil)
        }
    }

    /// The pool over 8-bit codes (`NetworkPlan.int8CodePools`), split by channel.
    private func runOnCodes(_ input: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, _ layer: LayerPlan,
                            split: ThreadSplit, kernels: VectorKernels) {
        let inShape = layer.inputShape, outShape = layer.outputShape
        split(inShape.channels, minimumPiece: 4) { channels, _ in
            kernels.maxpoolCodes(input + channels.lowerBound * inShape.planeSize, channels: channels.count,
                         height: inShape.height, width: inShape.width, size: size, strideX: strideX, strideY: strideY,
                         padding: padding, outHeight: outShape.height, outWidth: outShape.width,
                         into: output + channels.lowerBound * outShape.planeSize)
        }
    }
}
