import Foundation

/// `[reorg]`: YOLOv2's passthrough rearrangement, Darknet's own permutation.
///
/// The output is `W/stride x H/stride x C*stride²`, but its values are not a standard
/// space-to-depth: Darknet's `forward_reorg_layer` calls `reorg_cpu` with the *input*
/// dimensions and `forward=0`, so output value `(k, j, i)` of a `W x H x C` grid (the output
/// buffer read with the input's shape) is input value `(k % (C/s²), j*s + (k/(C/s²)) / s,
/// i*s + (k/(C/s²)) % s)` of a `sW x sH x C/s²` grid (the input buffer read with that shape).
///
/// `reverse=1` applies the inverse permutation (`W*s x H*s x C/s²`); `flatten=1` instead
/// reorders the values from planar `C x (H*W)` to interleaved `(H*W) x C` (back with
/// `reverse`) under the shape the stride gives; `extra=N` instead outputs the input as a flat
/// vector followed by `N` zeros (`go.cfg`).
public struct ReorgSpec: Sendable, Equatable {
    /// Block side (`stride`, default 1).
    public var stride: Int
    /// The inverse rearrangement (`reverse`, default 0).
    public var reverse: Bool = false
    /// Interleave channels instead of moving blocks (`flatten`, default 0).
    public var flatten: Bool = false
    /// Zeros appended to a flat copy of the input (`extra`, default 0).
    public var extra: Int = 0
}

extension ReorgSpec: WeightlessLayer {
    static let sectionNames = ["reorg"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> ReorgSpec {
        let spec = ReorgSpec(stride: try r.int("stride", default: 1, minimum: 1),
                             reverse: try r.bool("reverse", default: false),
                             flatten: try r.bool("flatten", default: false),
                             extra: try r.int("extra", default: 0, minimum: 0))
        // Darknet's flatten branch copies `outputs` (input + extra) values from the input.
        if spec.flatten && spec.extra > 0 {
            throw r.error("extra", .unsupported("extra together with flatten (Darknet reads past its input)"))
        }
        return spec
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input, s = stride
        if extra > 0 {
            let (count, overflow) = input.count.addingReportingOverflow(extra)
            guard !overflow else { throw context.fail(.sizeOverflow) }
            return LayerPlanning(output: TensorShape(channels: count, height: 1, width: 1))
        }
        guard input.width % s == 0, input.height % s == 0, input.channels % (s * s) == 0 else {
            throw context.fail(.reorgNotDivisible(input: input, stride: s))
        }
        if reverse {
            return LayerPlanning(output: TensorShape(channels: input.channels / (s * s), height: input.height * s,
                                                     width: input.width * s))
        }
        return LayerPlanning(output: TensorShape(channels: input.channels * s * s, height: input.height / s,
                                                 width: input.width / s))
    }

    func summary(_ layer: LayerPlan) -> String {
        extra > 0
            ? String(format: "reorg              %4d   ->  %4d", layer.inputShape.count, layer.outputShape.count)
            : String(format: "reorg             /%2d  ", stride) + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let input = pass.input(of: layer), output = pass.output(of: layer), inShape = layer.inputShape
        if extra > 0 {
            output.update(from: input, count: inShape.count)
            (output + inShape.count).update(repeating: 0, count: extra)
        } else if flatten {
            interleaveChannels(input, planeSize: inShape.planeSize, channels: inShape.channels, reverse: reverse, into: output)
        } else {
            reorg(input, width: inShape.width, height: inShape.height, channels: inShape.channels,
                  stride: stride, reverse: reverse, into: output)
        }
    }
}
