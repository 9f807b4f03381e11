import CommandLineKit
import Darknet
import Foundation

/// The flags of a command that loads a detector (detect, video, serve, map, valid, recall): the model files, where
/// the labels come from, how the network is planned and in what precision.
struct DetectorFlags {
    let model: ModelOptions
    let labelFiles: LabelFiles
    let plan: PlanFlags
    let precision: PrecisionFlags

    /// `darknetDefault`: where Darknet's form of the command reads its labels when none are named (`LabelFiles`).
    init(arguments: inout Arguments, darknetDefault: DarknetForms.DefaultData? = nil) throws {
        model = try ModelOptions(arguments: &arguments)
        labelFiles = try LabelFiles(arguments: &arguments, names: model.names, darknetDefault: darknetDefault)
        plan = try PlanFlags(arguments: &arguments)
        precision = try PrecisionFlags(arguments: &arguments)
    }

    /// The detector of the resolved model files (`model.resolve()`): the cfg's diagnostics
    /// reported (errors under `--strict`), the weights loaded, the labels from `--names` or
    /// `--data` checked against the network's classes (a network without a detection head is
    /// refused first). int8 is calibrated on images fitted to the input as the command fits its
    /// own (`letterbox`).
    func loadDetector(_ files: (cfg: URL, weights: URL, names: URL?), letterbox: Bool = true, threads: Int,
                      sessionPolicy: SessionPolicy = SessionPolicy()) throws -> Detector {
        let spec = try loadSpec(files.cfg)
        try report(spec, options: plan.options)
        let network = try precision.network(spec: spec, weights: files.weights, plan: plan.options, letterbox: letterbox,
                                            threads: threads)
        return try labelFiles.detector(network, names: files.names, cfg: files.cfg, threads: threads, sessionPolicy: sessionPolicy)
    }
}
