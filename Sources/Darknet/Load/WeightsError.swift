/// A `.weights` file that does not match its network.
public struct WeightsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Equatable, Sendable {
        /// The file is shorter than the version header (`needed` bytes).
        case truncatedHeader(needed: Int, available: Int)
        /// The version numbers cannot be Darknet's (negative, or above 65535: not a weights file).
        case invalidVersion(major: Int32, minor: Int32, revision: Int32)
        /// The file ends inside a layer's parameters.
        case truncated(parameter: String, neededBytes: Int, availableBytes: Int)
        /// The file could not be read at `parameter` though it was long enough when opened: it
        /// was cut short while it loaded, or the system failed to read it (`reason`).
        case unreadable(parameter: String, reason: String)
        /// Bytes remain after the last layer's parameters.
        case trailingBytes(count: Int)
        /// A parameter is NaN or infinite (`element` is its index within `parameter`).
        case nonFinite(parameter: String, element: Int)
        /// A batch-norm variance is negative.
        case negativeVariance(element: Int, value: Float)
    }

    /// The file (path or name given to the loader).
    public let file: String
    /// 0-based layer index, when the error is inside a layer.
    public let layer: Int?
    /// Byte offset in the file where the problem starts.
    public let offset: Int
    /// What is wrong.
    public let reason: Reason

    public var description: String {
        let subject = layer.map { "layer \($0), " } ?? ""
        return "\(file): \(subject)byte offset \(offset): \(reason.message)"
    }
}

extension WeightsError.Reason {
    var message: String {
        switch self {
        case .truncatedHeader(let needed, let available):
            "file too short for the header: \(needed) bytes needed, \(available) present"
        case .invalidVersion(let major, let minor, let revision):
            "invalid version \(major).\(minor).\(revision)"
        case .truncated(let parameter, let needed, let available):
            "file ends inside \(parameter): \(needed) bytes expected, \(available) left"
        case .unreadable(let parameter, let reason):
            "cannot read \(parameter): \(reason)"
        case .trailingBytes(let count):
            "\(count) bytes left over after the last layer (the weights do not match this cfg)"
        case .nonFinite(let parameter, let element):
            "\(parameter)[\(element)] is not a finite number"
        case .negativeVariance(let element, let value):
            "batch-norm variance[\(element)] is negative (\(value))"
        }
    }
}
