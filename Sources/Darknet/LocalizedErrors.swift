import Foundation

// Every public error type's `localizedDescription` (and `errorDescription`) is its one-line
// `description`, not Foundation's "The operation could not be completed. (... error 1.)".

extension CfgError: LocalizedError {
    public var errorDescription: String? { description }
}

extension PlanError: LocalizedError {
    public var errorDescription: String? { description }
}

extension WeightsError: LocalizedError {
    public var errorDescription: String? { description }
}

extension FileError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ImageError: LocalizedError {
    public var errorDescription: String? { description }
}

extension DetectorError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ClassifierError: LocalizedError {
    public var errorDescription: String? { description }
}

extension InferenceError: LocalizedError {
    public var errorDescription: String? { description }
}

extension BLAS.Unavailable: LocalizedError {
    public var errorDescription: String? { description }
}

extension ArgumentError: LocalizedError {
    public var errorDescription: String? { description }
}
