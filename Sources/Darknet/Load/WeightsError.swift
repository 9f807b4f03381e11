/// A `.weights` file that does not match its network.
public struct WeightsError: DarknetError, Equatable, Sendable {
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
    /// For `.truncated` and `.trailingBytes` found by the size check before any parameter is
    /// read: the bytes the cfg needs against the bytes the file has.
    public var sizeMismatch: WeightsSizeMismatch?
    /// The cfg's diagnostics (unknown or repeated keys), which may explain the mismatch.
    public var notes: [CfgDiagnostic]
    /// For `.invalidVersion`: what the file's first bytes look like instead ("an HTML page",
    /// "a JPEG image", "a Darknet .cfg", ...), when they say.
    public var looksLike: String?

    public init(file: String, layer: Int?, offset: Int, reason: Reason, sizeMismatch: WeightsSizeMismatch? = nil,
                notes: [CfgDiagnostic] = []) {
        self.file = file
        self.layer = layer
        self.offset = offset
        self.reason = reason
        self.sizeMismatch = sizeMismatch
        self.notes = notes
    }

    /// `file: layer L, byte offset O: what`; a size mismatch leads with the two sizes:
    /// `file: the cfg needs N bytes of weights (header 20), the file has M: ... (where it ends)`.
    public var description: String {
        guard let sizeMismatch else {
            let subject = layer.map { "layer \($0), " } ?? ""
            let instead = looksLike.map { ": not a .weights file but \($0)" } ?? ""
            return "\(file): \(subject)byte offset \(offset): \(reason.message)\(instead)" + notes.noteSuffix
        }
        let detail: String = switch reason {
        case .truncated(let parameter, let needed, let available):
            "it ends inside layer \(layer ?? -1)'s \(parameter) at byte offset \(groupedDigits(offset)): "
                + "\(needed) bytes expected, \(available) left"
        case .trailingBytes(let count):
            "\(groupedDigits(count)) bytes left over after the last layer, from byte offset \(groupedDigits(offset))"
        default:
            "byte offset \(offset): \(reason.message)"
        }
        return "\(file): \(sizeMismatch) (\(detail))" + notes.noteSuffix
    }
}

/// A weights file whose size is not what its cfg needs, found before any parameter is read.
public struct WeightsSizeMismatch: Equatable, Sendable, CustomStringConvertible {
    /// Bytes the cfg needs: the header plus every layer's parameters as the file stores them.
    public let neededBytes: Int
    /// The header's size (16 or 20 bytes, by its version).
    public let headerBytes: Int
    /// Bytes in the file.
    public let fileBytes: Int
    /// When a shorter file ends exactly where a layer's parameters end: how many layers it
    /// holds whole (a partial file such as `darknet53.conv.74`, or another cfg's weights).
    public let wholeLayers: Int?

    public init(neededBytes: Int, headerBytes: Int, fileBytes: Int, wholeLayers: Int? = nil) {
        self.neededBytes = neededBytes
        self.headerBytes = headerBytes
        self.fileBytes = fileBytes
        self.wholeLayers = wholeLayers
    }

    /// Whether the file holds a whole number of floats after its header, as every file Darknet
    /// writes does: a file that does not was cut short, not written for another cfg.
    public var isWholeFloats: Bool { (fileBytes - headerBytes) % 4 == 0 }

    public var description: String {
        let sizes = "the cfg needs \(groupedDigits(neededBytes)) bytes of weights (header \(headerBytes)), "
            + "the file has \(groupedDigits(fileBytes))"
        if fileBytes > neededBytes { return sizes + ": the weights belong to another cfg" }
        if let wholeLayers {
            let layers = wholeLayers == 1 ? "layer 0" : "layers 0-\(wholeLayers - 1)"
            return sizes + ": it holds the parameters of \(layers) only "
                + "(a partial file such as darknet53.conv.74, or the weights of another cfg)"
        }
        return sizes + (isWholeFloats ? ": the weights belong to another cfg, or the file is truncated"
                                      : ": the file is truncated")
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

/// `35434956` as `35,434,956`.
func groupedDigits(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (i, digit) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}
