/// Which convolutions an int8 plan runs in integers, and how: the precision's calibrated
/// convolutions, less those `Int8FloatLayers` keeps from 8 bits (in 16-bit integers where
/// `.int16Direct` computes them, else float; `ArithmeticChoice` gives the 16-bit ones
/// bfloat16 instead where the CPU multiplies it), less, on a CPU without an int8 dot-product
/// instruction, those too shallow to gain (`Int8FloatLayers.minimumDepthWithoutVNNI`). The
/// planner then takes an integer algorithm for each where one computes it (`ConvolutionChoice`);
/// the others stay float.
struct IntegerLayers {
    private let entries: [Int: (entry: Int8Calibration.Layer, sixteenBit: Bool)]
    private let cpu: CPUFeatures
    private let pinned: IntegerKernels?

    init(_ spec: NetworkSpec, precision: Precision, cpu: CPUFeatures, pinned: IntegerKernels?) {
        self.cpu = cpu
        self.pinned = pinned
        guard case .int8(let calibration, let floatLayers) = precision else {
            entries = [:]
            return
        }
        var entries: [Int: (Int8Calibration.Layer, Bool)] = [:]
        for layer in spec.layers {
            guard case .convolutional = layer.kind, let entry = calibration.layer(layer.index) else { continue }
            let channels = entry.input.channels
            if floatLayers.tooShallow(layer.index, inputChannels: channels, in: spec, on: cpu) { continue }
            if !floatLayers.keepsFloat(layer.index, inputChannels: channels, in: spec) {
                entries[layer.index] = (entry, false)
            } else if floatLayers.readsSixteenBits(layer.index, inputChannels: channels, in: spec) {
                entries[layer.index] = (entry, true)
            }
        }
        self.entries = entries
    }

    /// The integer input quantization of `layer`, which reads `input`, or nil: float.
    /// - Throws: `PlanError.Reason.calibrationMismatch` when the calibration saw another shape.
    func quantization(of layer: LayerSpec, reading input: TensorShape) throws(PlanError) -> Int8LayerQuantization? {
        guard let (entry, sixteenBit) = entries[layer.index], case .convolutional(let conv) = layer.kind else { return nil }
        guard entry.input == input else {
            throw PlanError(layer: layer.index, section: layer.kind.sectionName, reason: .calibrationMismatch(
                "layer \(layer.index) was calibrated for a \(entry.input) input, it reads \(input)"))
        }
        let depth = input.channels / max(conv.groups, 1) * conv.size * conv.size
        return Int8LayerQuantization(input: entry.quantization, variant: pinned ?? cpu.integerKernels,
                                     weightLimit: cpu.integerKernels.plannedWeightLimit(depth: depth),
                                     sixteenBitMagnitude: sixteenBit ? max(-entry.minimum, entry.maximum, 0) : nil)
    }
}
