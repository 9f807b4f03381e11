import Darknet
import DarknetImage

// The Swift snippets of the article Int8.md, compiled (never run) with only its imports.

func int81() throws {
    // begin Sources/Darknet/Darknet.docc/Int8.md 1
    let float = try Network(cfg: cfgURL, weights: weightsURL)
    let calibration = try Int8Calibration(network: float, imagesIn: calibrationFolderURL)
    try calibration.write(to: sidecarURL)                                         // once; later:
    let saved = try Int8Calibration(contentsOf: sidecarURL, for: float.spec)      // checked against the cfg
    let int8 = try Network(cfg: cfgURL, weights: weightsURL, options: PlanOptions(precision: .int8(saved)))
    let detector = try Detector(network: int8, labels: try Detector.readLabels(namesURL))
    // end Sources/Darknet/Darknet.docc/Int8.md 1
    _ = detector
}
