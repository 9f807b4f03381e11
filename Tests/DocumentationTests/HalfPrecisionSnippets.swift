import Darknet

// The Swift snippets of the article HalfPrecision.md, compiled (never run) with only its imports.

func halfPrecision1() throws {
    // begin Sources/Darknet/Darknet.docc/HalfPrecision.md 1
    let precision = Precision.fastestUncalibrated(on: .current)       // .bfloat16, .float16 or .float32
    let network = try Network(cfg: cfgURL, weights: weightsURL, options: PlanOptions(precision: precision))
    for layer in network.plan.layers where layer.algorithm != nil {
        print(layer.index, layer.arithmetic, layer.arithmeticReason ?? "")
    }
    let detector = try Detector(network: network, labels: try Detector.readLabels(namesURL))
    // end Sources/Darknet/Darknet.docc/HalfPrecision.md 1
    _ = detector
}
