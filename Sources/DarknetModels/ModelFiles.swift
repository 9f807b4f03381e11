import Darknet
import Foundation

/// Local files of a model, ready to load: a cached version or the bundled copy.
public struct ModelFiles: Sendable, Equatable, CustomStringConvertible {
    /// Where the files come from.
    public enum Origin: Sendable, Equatable, CustomStringConvertible {
        /// A version in the cache (`version` is its folder name under `versions/`).
        case cache(version: String)
        /// The app's own copy (`HostedModel.bundled`).
        case bundled

        /// `cache version <id>` or `bundled`.
        public var description: String {
            switch self {
            case .cache(let version): "cache version \(version)"
            case .bundled: "bundled"
            }
        }
    }

    /// The local `.cfg` file.
    public let cfg: URL
    /// The local `.weights` file.
    public let weights: URL
    /// The local names file, if the model has one.
    public let names: URL?
    /// Cache or bundle.
    public let origin: Origin

    /// The weights file's path and the origin: `/cache/tiny/versions/3f2a/model.weights (cache version 3f2a)`.
    public var description: String { "\(weights.path) (\(origin))" }

    /// Files at these local URLs.
    public init(cfg: URL, weights: URL, names: URL?, origin: Origin) {
        self.cfg = cfg
        self.weights = weights
        self.names = names
        self.origin = origin
    }

    /// Loads a `Detector` from these files. The detector holds its weights in memory, so it
    /// keeps working when an update later replaces the cached files.
    /// - Throws: `FileError`, `CfgError`, `PlanError`, `WeightsError`, `DetectorError`.
    public func makeDetector(threads: Int = 1, options: PlanOptions = PlanOptions()) throws -> Detector {
        try Detector(cfg: cfg, weights: weights, names: names, threads: threads, options: options)
    }

    /// Loads a `Classifier` from these files.
    public func makeClassifier(threads: Int = 1, options: PlanOptions = PlanOptions()) throws -> Classifier {
        try Classifier(cfg: cfg, weights: weights, names: names, threads: threads, options: options)
    }
}
