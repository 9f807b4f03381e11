import Darknet
import Foundation

/// The check a downloaded model must pass before it is installed in the cache.
public struct ModelValidation: Sendable {
    /// Throws if the files do not make a usable model.
    public let check: @Sendable (ModelFiles) throws -> Void

    /// A custom check (e.g. a `Classifier` or `Detector` with the app's labels).
    public init(_ check: @escaping @Sendable (ModelFiles) throws -> Void) {
        self.check = check
    }

    /// The default: the cfg parses and plans, the weights fill it to the last byte, and the names
    /// file (if any) is UTF-8 text. Costs one load of the network.
    public static let loadsNetwork = ModelValidation { files in
        _ = try Network(cfg: files.cfg, weights: files.weights)
        if let names = files.names { _ = try ClassLabels.read(names) }
    }

    /// The file a load error is about: cfg for cfg and plan errors, weights for weights errors,
    /// and for a file error the file it names.
    static func role(of error: any Error, files: ModelFiles) -> ModelFileRole {
        switch error {
        case is WeightsError: return .weights
        case let error as FileError:
            if error.path == files.weights.path { return .weights }
            if error.path == files.names?.path { return .names }
            return .cfg
        default: return .cfg
        }
    }
}
