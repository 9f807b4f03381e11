import Foundation

/// `[reorg3d]` (AlexeyAB): a true space-to-depth, unlike the original `[reorg]`.
///
/// AlexeyAB's `forward_reorg_layer` runs the same permutation as `[reorg]` (`reorg_cpu`) but
/// with the *output* dimensions: output value `(k, j, i)` of the `W/s x H/s x C*s²` output is
/// input value `(k % C, j*s + (k / C) / s, i*s + (k / C) % s)` of the `W x H x C` input, so each
/// `s x s` block of a channel becomes `s²` channels, `C` apart.
///
/// `reverse=1` gives a `W*s x H*s x C/s²` output computed with `reorg_cpu`'s other direction on
/// that output shape: value `(k, j, i)` of the input read as that shape lands at `(k % (C/s⁴),
/// j*s + (k / (C/s⁴)) / s, i*s + (k / (C/s⁴)) % s)` of the output read as a grid `s` times
/// wider and higher again. That is not the inverse of `reverse=0`; `C` must be a multiple of `s⁴`.
public struct Reorg3dSpec: Sendable, Equatable {
    /// Block side (`stride`, default 1).
    public var stride: Int
    /// The other direction (`reverse`, default 0).
    public var reverse: Bool = false
}

extension Reorg3dSpec: WeightlessLayer {
    static let sectionNames = ["reorg3d"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> Reorg3dSpec {
        Reorg3dSpec(stride: try r.int("stride", default: 1, minimum: 1), reverse: try r.bool("reverse", default: false))
    }

    var needsAlexeyAB: Bool { true }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input, s = stride
        let block = try context.product(s, s)
        if reverse {
            guard input.channels % (try context.product(block, block)) == 0 else {
                throw context.fail(.reorgReverseChannelsNotDivisible(channels: input.channels, stride: s))
            }
            return LayerPlanning(output: TensorShape(channels: input.channels / block, height: try context.product(input.height, s),
                                                     width: try context.product(input.width, s)))
        }
        guard input.width % s == 0, input.height % s == 0 else {
            throw context.fail(.reorgNotDivisible(input: input, stride: s))
        }
        return LayerPlanning(output: TensorShape(channels: try context.product(input.channels, block), height: input.height / s,
                                                 width: input.width / s))
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "reorg3d           /%2d  ", stride) + layer.shapes
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let out = layer.outputShape
        reorg(pass.input(of: layer), width: out.width, height: out.height, channels: out.channels,
              stride: stride, reverse: reverse, into: pass.output(of: layer))
    }
}
