import CommandLineKit
import DarknetModels
import Foundation

/// `--cfg`, `--weights`, `--names` as local paths or `http(s)://` URLs, with `--cache DIR` and
/// `--update`: the model options every command that loads a model shares (detect, classify,
/// and later video). `resolve()` turns them into local files.
///
/// With any option an `http(s)://` URL, the three files are kept in a cache (`--cache`, default
/// `$XDG_CACHE_HOME/swift-darknet` or `~/.cache/swift-darknet`). Once cached, they are used
/// without the network unless `--update` asks the server first; a failed check is reported on
/// stderr and the cached model is used. A first download that fails is an error.
struct ModelOptions {
    /// The model files, with `extra` (a command's label options) after `--names`.
    static func options(_ extra: [Option] = []) -> OptionGroup {
        OptionGroup("model", [
            .value("cfg", "FILE|URL", required: true, "the Darknet .cfg (a local file or an http(s):// URL)"),
            .value("weights", "FILE|URL", required: true, "its .weights"),
            .value("names", "FILE|URL", "one label per line (e.g. coco.names); without it (or --data), class indices"),
        ] + extra + [
            .value("cache", "DIR", default: "~/.cache/swift-darknet", "where URLs are downloaded once and used from"),
            .flag("update", "ask the server for a newer model first (on failure the cached one is used)"),
            .value("timeout", "SECONDS", default: "30", "without a byte before a download is abandoned"),
        ])
    }

    let cfg: String
    let weights: String
    let names: String?
    let cache: URL?
    let update: Bool
    let timeout: Double

    init(arguments: inout Arguments) throws {
        cfg = try arguments.required("cfg")
        weights = try arguments.required("weights")
        names = arguments.string("names")
        cache = arguments.string("cache").map { URL(fileURLWithPath: $0, isDirectory: true) }
        update = arguments.flag("update")
        timeout = Double(try arguments.float("timeout", range: 0.1...86_400))
        if !isRemote, cache != nil || update || arguments.string("timeout") != nil {
            throw CLIError("--cache, --update and --timeout apply to http(s):// URLs; --cfg, --weights and --names are local files")
        }
    }

    /// Whether any of the three is fetched over HTTP(S).
    var isRemote: Bool { [cfg, weights, names].contains { $0.map(Self.isHTTP) ?? false } }

    /// Local files for the model: the paths themselves, or the cached copies of the URLs
    /// (downloaded, or checked with `--update`, first). Progress goes to stderr on a terminal.
    func resolve() throws -> (cfg: URL, weights: URL, names: URL?) {
        guard isRemote else {
            return (URL(fileURLWithPath: cfg), URL(fileURLWithPath: weights), names.map { URL(fileURLWithPath: $0) })
        }
        let cfgURL = try Self.url(cfg), weightsURL = try Self.url(weights), namesURL = try names.map(Self.url)
        let model = HostedModel(name: HostedModel.defaultName(cfg: cfgURL, weights: weightsURL, names: namesURL),
                                cfg: RemoteFile(cfgURL), weights: RemoteFile(weightsURL), names: namesURL.map { RemoteFile($0) })
        let store = ModelStore(model: model, cacheDirectory: cache ?? Self.defaultCache)
        let progress = ProgressLine.onTerminal()
        var options = DownloadOptions(idleTimeout: timeout)
        if let progress { options.progress = { progress.show($0) } }
        let files: ModelFiles
        if store.isDownloaded, let cached = store.cachedModel {
            if update {
                do {
                    files = try store.update(options: options).files
                } catch {
                    progress?.end()
                    warn("update check failed: \(error); using the cached model")
                    files = cached
                }
            } else {
                files = cached
            }
        } else {
            files = try store.download(options: options)
        }
        progress?.end()
        return (files.cfg, files.weights, files.names)
    }

    static func isHTTP(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A URL for an option: itself if HTTP(S), else a local path as a `file://` URL.
    private static func url(_ text: String) throws -> URL {
        guard isHTTP(text) else { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), url.host != nil else { throw CLIError("'\(text)' is not a valid URL") }
        return url
    }

    static var defaultCache: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("swift-darknet", isDirectory: true)
        }
        #if os(macOS)
        let base = "Library/Caches"
        #else
        let base = ".cache"
        #endif
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(base)
            .appendingPathComponent("swift-darknet", isDirectory: true)
    }
}
