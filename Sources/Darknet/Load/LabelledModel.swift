import Foundation

/// A model that wraps a loaded network and its class names: `Detector` and `Classifier`.
/// Each loads from Darknet files through the same initialiser.
public protocol LabelledModel: AnyObject {
    /// Wraps a loaded network. `labels` may be empty (indices are used) or cover every output;
    /// `labelsFile` names them in errors.
    init(network: Network, labels: [String], labelsFile: String, threads: Int, sessionPolicy: SessionPolicy) throws
}

extension LabelledModel {
    /// Loads the model from Darknet files.
    /// - Parameters:
    ///   - cfg: the network's `.cfg` file.
    ///   - weights: its `.weights` file.
    ///   - names: a names file, one label per line (`coco.names`, `imagenet.shortnames.list`);
    ///     without it labels are class indices.
    ///   - threads: threads one call may use: 1 by default, so concurrent calls each get a core;
    ///     `AvailableCores.count` gives one caller all the cores this process may use. Results do
    ///     not depend on it.
    ///   - options: how the network is planned (precision, algorithms, memory limit).
    ///   - sessionPolicy: how many sessions exist at once and how long idle ones are kept.
    /// - Throws: `ArgumentError` (`threads` below 1, an invalid `sessionPolicy`), `FileError`,
    ///   `CfgError`, `PlanError`, `WeightsError`, then what the model's own initialiser throws
    ///   (`DetectorError`, `ClassifierError`).
    public init(cfg: URL, weights: URL, names: URL? = nil, threads: Int = 1, options: PlanOptions = PlanOptions(),
                sessionPolicy: SessionPolicy = SessionPolicy()) throws {
        try sessionPolicy.validate(threads: threads)
        let network = try Network(cfg: cfg, weights: weights, options: options)
        let labels = try names.map { url throws in try ClassLabels.read(url) } ?? []
        try self.init(network: network, labels: labels, labelsFile: names?.path ?? "<labels>", threads: threads,
                      sessionPolicy: sessionPolicy)
    }
}
