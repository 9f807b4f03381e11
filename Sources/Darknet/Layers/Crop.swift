/// `[crop]`: at inference, the centred `cropWidth x cropHeight` window of the input,
/// each value mapped to `2x - 1` (or kept with `noadjust=1`).
public struct CropSpec: Sendable, Equatable {
    /// Output width (`crop_width`, default 1).
    public var cropWidth: Int
    /// Output height (`crop_height`, default 1).
    public var cropHeight: Int
    /// Keep values as they are instead of `2x - 1` (`noadjust`, default 0).
    public var noAdjust: Bool
}

extension CropSpec: WeightlessLayer {
    static let sectionNames = ["crop"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> CropSpec {
        r.ignore(TrainingKeys.crop)
        return CropSpec(cropWidth: try r.int("crop_width", default: 1, minimum: 1),
                        cropHeight: try r.int("crop_height", default: 1, minimum: 1),
                        noAdjust: try r.bool("noadjust", default: false))
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input
        guard cropWidth <= input.width, cropHeight <= input.height else {
            throw context.fail(.cropLargerThanInput(width: cropWidth, height: cropHeight, input: input))
        }
        return LayerPlanning(output: TensorShape(channels: input.channels, height: cropHeight, width: cropWidth))
    }

    func summary(_ layer: LayerPlan) -> String {
        "crop                    " + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let inShape = layer.inputShape, outShape = layer.outputShape
        centreCrop(pass.input(of: layer), channels: inShape.channels, height: inShape.height, width: inShape.width,
                   outHeight: outShape.height, outWidth: outShape.width,
                   scale: noAdjust ? 1 : 2, shift: noAdjust ? 0 : -1, into: pass.output(of: layer))
    }
}

extension TrainingKeys {
    /// `[crop]`: random flips, rotations and colour jitter are training augmentations; at
    /// inference Darknet takes the centre window.
    static let crop: Set<String> = ["flip", "angle", "saturation", "exposure", "shift"]
}
