import CommandLineKit
import Darknet
import Foundation

/// The flags of a command that loads a classifier (`classify`, `classify-video`): the model
/// files, where the labels come from, how the network is planned, how many classes to report
/// and the threads of each forward pass.
struct ClassifierFlags {
    static let classificationOptions: [Option] = [
        .value("top", "N", default: "5", "how many classes to report, the most probable first"),
        .value("threads", "N", default: "1", "threads for each forward pass (results do not depend on it)"),
    ]

    let model: ModelOptions
    let labelFiles: LabelFiles
    let plan: PlanFlags
    let top: Int
    let threads: Int

    init(arguments: inout Arguments) throws {
        model = try ModelOptions(arguments: &arguments)
        labelFiles = try LabelFiles(arguments: &arguments, names: model.names)
        plan = try PlanFlags(arguments: &arguments)
        top = try arguments.int("top", range: 1...100_000)
        threads = try arguments.int("threads", range: 1...256)
    }

    /// The classifier of the model files: the cfg's diagnostics reported (errors under
    /// `--strict`), the weights loaded, the labels from `--names` or `--data` checked against the
    /// network's outputs.
    func loadClassifier() throws -> Classifier {
        let (cfg, weights, names) = try model.resolve()
        let spec = try loadSpec(cfg)
        try report(spec, options: plan.options)
        let network = try Network(spec: spec, weights: weights, options: plan.options)
        let unlabelled = try Classifier(network: network, threads: threads)
        let outputs = network.plan.layers[unlabelled.outputLayer].outputShape.count
        let (labels, labelsFile) = try labelFiles.load(names: names, classes: outputs, cfg: cfg, what: "outputs")
        return try Classifier(network: network, labels: labels, labelsFile: labelsFile, threads: threads)
    }
}
