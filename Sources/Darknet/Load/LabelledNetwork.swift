import Foundation

/// A network and its labels loaded from Darknet files: what `Detector` and `Classifier` load
/// before wrapping them.
struct LabelledNetwork {
    let network: Network
    let labels: [String]
    /// The names file's path for error messages (`<labels>` without one).
    let labelsFile: String

    /// Checks `threads` against `sessionPolicy`, then reads the cfg, the weights and the names.
    init(cfg: URL, weights: URL, names: URL?, options: PlanOptions, threads: Int, sessionPolicy: SessionPolicy) throws {
        try sessionPolicy.validate(threads: threads)
        network = try Network(cfg: cfg, weights: weights, options: options)
        labels = try names.map { url throws in try ClassLabels.read(url) } ?? []
        labelsFile = names?.path ?? "<labels>"
    }
}
