import Darknet
import Foundation

/// The three files of a Darknet model.
public enum ModelFileRole: String, Sendable, Codable, CodingKeyRepresentable, CaseIterable, CustomStringConvertible {
    case cfg, weights, names
    /// The file name the cache stores this file under.
    var cachedFileName: String { "model.\(rawValue)" }
    /// `cfg`, `weights` or `names`.
    public var description: String { rawValue }
}

/// Where one file of a hosted model lives: an `http://`, `https://` or `file://` URL, and the
/// SHA-256 it must have (64 hex digits, lower- or upper-case), if known.
///
/// ```swift
/// let cfg = RemoteFile(cfgURL)                                      // any content of the right size
/// let weights = try RemoteFile(weightsURL, sha256: "8c9a...64 hex digits")  // checked when made
/// ```
public struct RemoteFile: Sendable, Equatable {
    /// The file's URL.
    public var url: URL
    /// The expected SHA-256 in lower-case hex; `nil` accepts any content (sizes are still
    /// checked). Set by the initialiser, which refuses a malformed digest.
    public private(set) var sha256: String?

    /// A file at `url` whose content is not known in advance.
    /// - Parameter url: an `http://`, `https://` or `file://` URL.
    public init(_ url: URL) {
        self.url = url
        sha256 = nil
    }

    /// A file at `url` that must have the SHA-256 `sha256`.
    ///
    /// The digest is checked here, before anything is downloaded: a typo is an error at once,
    /// not after the whole file has arrived.
    /// - Parameters:
    ///   - url: an `http://`, `https://` or `file://` URL.
    ///   - sha256: 64 hex digits (as `sha256sum` prints them, either case), or `nil` for any content.
    /// - Throws: `ArgumentError` naming `sha256` when it is not 64 hex digits.
    public init(_ url: URL, sha256: String?) throws(ArgumentError) {
        if let sha256 {
            let digits = sha256.unicodeScalars
            try ArgumentError.require(digits.count == 64 && digits.allSatisfy { $0.properties.isASCIIHexDigit },
                                      "sha256", "'\(sha256)'", expected: "64 hex digits (a SHA-256 as sha256sum prints it)")
        }
        self.url = url
        self.sha256 = sha256?.lowercased()
    }
}

/// A model shipped inside the app: local `.cfg`, `.weights` and (optional) names files.
public struct BundledModel: Sendable, Equatable {
    /// The local `.cfg` file.
    public var cfg: URL
    /// The local `.weights` file.
    public var weights: URL
    /// The local names file, if the model has one.
    public var names: URL?

    /// A bundled model from local file URLs.
    public init(cfg: URL, weights: URL, names: URL? = nil) {
        self.cfg = cfg
        self.weights = weights
        self.names = names
    }
}

/// A model described by URLs, the way apps host one: downloaded on demand into a cache, updated
/// when the server has a newer one, with a bundled copy to fall back on.
public struct HostedModel: Sendable, Equatable {
    /// Names the model's folder in the cache: letters, digits, `-`, `_` and `.` are kept,
    /// anything else becomes `_`.
    public var name: String
    /// The `.cfg` file's location.
    public var cfg: RemoteFile
    /// The `.weights` file's location.
    public var weights: RemoteFile
    /// The names file's location, if the model has one.
    public var names: RemoteFile?
    /// Used by `ModelStore.availableModel()` when nothing is cached.
    public var bundled: BundledModel?

    /// A hosted model; `name` picks its folder in the cache.
    public init(name: String, cfg: RemoteFile, weights: RemoteFile, names: RemoteFile? = nil,
                bundled: BundledModel? = nil) {
        self.name = name
        self.cfg = cfg
        self.weights = weights
        self.names = names
        self.bundled = bundled
    }

    /// A name for a model known only by its URLs (the command line's case): the weights file's
    /// name and a hash of the three URLs, so different URLs never share a cache folder.
    public static func defaultName(cfg: URL, weights: URL, names: URL?) -> String {
        let key = [cfg, weights].map(\.absoluteString).joined(separator: "\n") + "\n" + (names?.absoluteString ?? "")
        let stem = weights.deletingPathExtension().lastPathComponent
        return (stem.isEmpty ? "model" : stem) + "-" + ModelChecksum.hex(of: Array(key.utf8)).prefix(16)
    }

    /// The files to fetch, in the order they are fetched (small ones first, so the overall
    /// total is known while the weights download).
    var files: [(role: ModelFileRole, file: RemoteFile)] {
        var result: [(ModelFileRole, RemoteFile)] = [(.cfg, cfg)]
        if let names { result.append((.names, names)) }
        result.append((.weights, weights))
        return result
    }

    /// `name` made safe as one path component.
    var folderName: String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let cleaned = String(name.map { allowed.contains($0) ? $0 : "_" })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "_" + cleaned : cleaned
    }
}
