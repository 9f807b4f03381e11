import Foundation

/// `[local]` (YOLOv1): a locally connected layer, a convolution whose filters are not shared:
/// every output location has a filter bank of its own, and every output value a bias.
public struct LocalSpec: Sendable, Equatable {
    /// Output channels (`filters`, default 1).
    public var filters: Int
    /// Square window side (`size`, default 1).
    public var size: Int
    /// Step between windows (`stride`, default 1).
    public var stride: Int
    /// Zero padding on each side in pixels (`pad`, default 0): Darknet pads by the key's value.
    public var pad: Int
    /// Applied after the bias (`activation`, default `logistic`).
    public var activation: Activation
}

extension LocalSpec: Layer {
    static let sectionNames = ["local"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> LocalSpec {
        let spec = LocalSpec(filters: try r.int("filters", default: 1, minimum: 1), size: try r.int("size", default: 1, minimum: 1),
                             stride: try r.int("stride", default: 1, minimum: 1), pad: try r.int("pad", default: 0, minimum: 0),
                             activation: try r.activation("activation", default: .logistic))
        // Darknet sizes a padded output as if `size = 2 * pad + 1`, and reads its patches with the
        // row length `size` gives: other combinations read the wrong values.
        guard spec.pad == 0 || spec.size == 2 * spec.pad + 1 else {
            throw r.error("pad", .unsupported("pad=\(spec.pad) with size=\(spec.size) (Darknet's output size and patches agree only for size = 2*pad+1)"))
        }
        return spec
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let input = context.input
        guard pad > 0 || (size <= input.width && size <= input.height) else {
            throw context.fail(.windowLargerThanInput(window: size, input: input, padding: pad))
        }
        let output = TensorShape(
            channels: filters,
            height: LocalConvolution.outputExtent(input: input.height, size: size, stride: stride, pad: pad),
            width: LocalConvolution.outputExtent(input: input.width, size: size, stride: stride, pad: pad))
        let patch = try context.product(input.channels, size, size)
        let weights = try context.product(patch, filters, output.planeSize)
        let (parameters, overflow) = weights.addingReportingOverflow(try context.product(filters, output.planeSize))
        guard !overflow, patch < Int(Int32.max) else { throw context.fail(.sizeOverflow) }
        return LayerPlanning(output: output, threadScratch: patch, parameters: parameters)
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "local %5d %2d x%2d /%2d  ", filters, size, size, stride) + layer.shapes
    }

    /// `load_local_weights`: one bias per output value, then each location's filter bank.
    func storedParameters(_ layer: LayerPlan) -> [(name: String, count: Int)] {
        let locations = layer.outputShape.planeSize
        return [("biases", filters &* locations),
                ("weights", locations &* filters &* layer.inputShape.channels &* size &* size)]
    }

    func loadStep(_ layer: LayerPlan, from reader: inout WeightsReader, context: LoadingContext) throws(WeightsError)
        -> any LayerStep {
        let stored = storedParameters(layer)
        let biases = try reader.readFloats(stored[0].count, parameter: "biases")
        let weights = try reader.readFloats(stored[1].count, parameter: "weights")
        return LocalStep(spec: self, weights: weights, biases: biases)
    }
}

/// The forward step of a `[local]` layer: one GEMV per output location (`LocalConvolution`).
struct LocalStep: LayerStep {
    let spec: LocalSpec
    let weights: [Float]
    let biases: [Float]

    var parameterArrays: [[Float]] { [weights, biases] }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let input = layer.inputShape
        weights.withUnsafeBufferPointer { weights in
            biases.withUnsafeBufferPointer { biases in
                LocalConvolution.forward(input: pass.input(of: layer), channels: input.channels, height: input.height,
                                         width: input.width, filters: spec.filters, size: spec.size, stride: spec.stride,
                                         pad: spec.pad, weights: weights.baseAddress!, biases: biases.baseAddress!,
                                         activation: spec.activation, patch: pass.threadScratch, output: pass.output(of: layer),
                                         kernels: pass.kernels)
            }
        }
    }
}
