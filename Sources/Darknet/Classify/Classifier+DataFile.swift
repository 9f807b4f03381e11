import Foundation

extension Classifier {
    /// Loads a classifier from a Darknet `.data` file (`imagenet1k.data`: its `names`, and its
    /// `classes` checked against the network's outputs), a cfg and a weights file.
    /// - Throws: `FileError`, `DataFileError`, `CfgError`, `PlanError`, `WeightsError`, `ClassifierError`.
    public convenience init(data: URL, cfg: URL, weights: URL, threads: Int = 1, options: PlanOptions = PlanOptions(),
                            workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws {
        let dataFile = try DataFile(contentsOf: data, workingDirectory: workingDirectory)
        let network = try Network(cfg: cfg, weights: weights, options: options)
        let labels = try dataFile.labels()
        try self.init(network: network, labels: labels, labelsFile: dataFile.names?.path ?? "<labels>", threads: threads)
        try dataFile.check(classes: network.plan.layers[outputLayer].outputShape.count, cfg: cfg.path, what: "outputs")
    }
}
