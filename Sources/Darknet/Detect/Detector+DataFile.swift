import Foundation

extension Detector {
    /// Loads a detector from a Darknet `.data` file (its `names`, and its `classes` checked
    /// against the cfg's detection layers), a cfg and a weights file: what
    /// `darknet detector test obj.data yolo-obj.cfg yolo-obj.weights` takes.
    /// - Parameters:
    ///   - data: the `.data` file.
    ///   - cfg: the network's `.cfg` file.
    ///   - weights: its `.weights` file.
    ///   - threads: threads one `detect` call may use (default 1; `AvailableCores.count`: all the cores
    ///     this process may use); results do not depend on it.
    ///   - options: how the network is planned (precision, algorithms, memory limit).
    ///   - workingDirectory: where relative paths are looked for first (see `DataFile`).
    /// - Throws: `FileError`, `DataFileError`, `CfgError`, `PlanError`, `WeightsError`, `DetectorError`.
    public convenience init(data: URL, cfg: URL, weights: URL, threads: Int = 1, options: PlanOptions = PlanOptions(),
                            workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws {
        let dataFile = try DataFile(contentsOf: data, workingDirectory: workingDirectory)
        let network = try Network(cfg: cfg, weights: weights, options: options)
        try dataFile.check(classes: DetectionDecoder.checkedClassCount(of: network.plan), cfg: cfg.path)
        try self.init(network: network, labels: try dataFile.labels(), labelsFile: dataFile.names?.path ?? "<labels>",
                      threads: threads)
    }
}
