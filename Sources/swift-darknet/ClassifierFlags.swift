import CommandLineKit
import Darknet
import Foundation

/// The flags of a command that loads a classifier (`classify`, `classify-video`): the model
/// files, where the labels come from, how the network is planned, how many classes to report
/// and the threads of each forward pass.
struct ClassifierFlags {
    static let classificationOptions: [Option] = [
        .value("top", "N", """
            how many classes to report, the most probable first (default: 5; with --data, its
            top=, or 1 without one, as Darknet)
            """),
        ThreadsFlag.option(),
    ]

    let model: ModelOptions
    let labelFiles: LabelFiles
    let plan: PlanFlags
    /// `--top`, if given.
    let top: Int?
    let threads: Int

    /// `darknetDefault`: where Darknet's form of the command reads its labels when none are named (`LabelFiles`).
    init(arguments: inout Arguments, darknetDefault: DarknetForms.DefaultData? = nil) throws {
        model = try ModelOptions(arguments: &arguments)
        labelFiles = try LabelFiles(arguments: &arguments, names: model.names, darknetDefault: darknetDefault)
        plan = try PlanFlags(arguments: &arguments)
        top = arguments.string("top") == nil ? nil : try arguments.int("top", default: 5, range: 1...100_000)
        threads = try ThreadsFlag.read(&arguments)
    }

    /// How many classes to report: `--top`, else the `--data` file's `top=` (1 without one, as
    /// Darknet's `classifier predict` and `demo`), else 5.
    func options() throws -> ClassificationOptions {
        if let top { return ClassificationOptions(top: top) }
        guard let data = labelFiles.data else { return ClassificationOptions(top: 5) }
        return ClassificationOptions(top: try DataFile(contentsOf: data).top ?? 1)
    }

    /// The classifier of the resolved model files (`model.resolve()`): the cfg's diagnostics
    /// reported (errors under `--strict`), the weights loaded, the labels from `--names` or
    /// `--data` checked against the network's outputs.
    func loadClassifier(_ files: (cfg: URL, weights: URL, names: URL?)) throws -> Classifier {
        let (cfg, weights, names) = files
        let spec = try loadSpec(cfg)
        try report(spec, options: plan.options)
        let network = try Network(spec: spec, weights: weights, options: plan.options)
        let unlabelled = try Classifier(network: network, threads: threads)
        let outputs = network.plan.layers[unlabelled.outputLayer].outputShape.count
        let (labels, labelsFile) = try labelFiles.load(names: names, classes: outputs, cfg: cfg, what: "outputs")
        return try Classifier(network: network, labels: labels, labelsFile: labelsFile, threads: threads)
    }
}
