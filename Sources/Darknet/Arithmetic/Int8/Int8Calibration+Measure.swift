import Foundation

/// Measuring a calibration: a float `Network` run over calibration inputs. What it makes is
/// plain data (`Int8Calibration`, in Precision/) that a plan reads without running anything.
extension Int8Calibration {
    /// Runs the float `network` over `images`, each letterboxed to the network input as
    /// `Detector` does (or stretched, with `letterbox: false`), and records the range of every
    /// convolution's input. `network` should be a float one (its `PlanOptions.precision`
    /// `.float32`): an int8 network would calibrate on its own rounding.
    /// - Throws: `ArgumentError` for `threads` below 1, `Int8CalibrationError.noImages`,
    ///   `.channelMismatch` (all before any image is prepared), `.notFinite`; `ImageError` from
    ///   letterboxing.
    public init(network: Network, images: [PlanarImage], letterbox: Bool = true, threads: Int = 1) throws {
        try ArgumentError.require("threads", threads, atLeast: 1)
        let shape = network.inputShape
        guard !images.isEmpty else { throw Int8CalibrationError.noImages }
        if let odd = images.first(where: { $0.channels != shape.channels }) {
            throw Int8CalibrationError.channelMismatch(expected: shape.channels, actual: odd.channels)
        }
        var inputs: [[Float]] = []
        for image in images {
            let prepared = letterbox ? try image.letterboxed(width: shape.width, height: shape.height).image
                                     : try image.stretched(width: shape.width, height: shape.height).image
            inputs.append(prepared.pixels)
        }
        try self.init(network: network, inputs: inputs, threads: threads)
    }

    /// Records every convolution's input range over network inputs already prepared (planar
    /// CHW, the network input's size).
    /// - Throws: `ArgumentError` for `threads` below 1 (before anything runs),
    ///   `Int8CalibrationError.noImages`, `.notFinite`; `InferenceError` for an input of the
    ///   wrong size.
    public init(network: Network, inputs: [[Float]], threads: Int = 1) throws {
        try ArgumentError.require("threads", threads, atLeast: 1)
        guard !inputs.isEmpty else { throw Int8CalibrationError.noImages }
        let convolutions = network.plan.layers.filter {
            if case .convolutional = $0.spec.kind { true } else { false }
        }
        let sources = Set(convolutions.map { $0.index - 1 }.filter { $0 >= 0 })
        let session = InferenceSession(network: network, retaining: .layers(sources), threads: threads)
        var low = [Float](repeating: .infinity, count: convolutions.count)
        var high = [Float](repeating: -.infinity, count: convolutions.count)
        for input in inputs {
            try session.forward(input)
            for (slot, layer) in convolutions.enumerated() {
                let (minimum, maximum) = layer.index == 0
                    ? input.withUnsafeBufferPointer(Self.range)
                    : try session.withOutput(ofLayer: layer.index - 1) { values, _ in Self.range(values) }
                guard minimum.isFinite, maximum.isFinite else { throw Int8CalibrationError.notFinite(layer: layer.index) }
                low[slot] = min(low[slot], minimum)
                high[slot] = max(high[slot], maximum)
            }
        }
        self.init(cfg: URL(fileURLWithPath: network.plan.file).lastPathComponent, inputShape: network.inputShape,
                  imageCount: inputs.count,
                  layers: convolutions.enumerated().map { slot, layer in
                      Layer(layer: layer.index, input: layer.inputShape, minimum: low[slot], maximum: high[slot])
                  },
                  weights: network.weightsFingerprint)
    }

    /// Smallest and largest of `values` (a NaN makes both NaN).
    private static func range(_ values: UnsafeBufferPointer<Float>) -> (Float, Float) {
        var low = Float.infinity, high = -Float.infinity
        for value in values {
            if value.isNaN { return (.nan, .nan) }
            low = min(low, value)
            high = max(high, value)
        }
        return (low, high)
    }
}
