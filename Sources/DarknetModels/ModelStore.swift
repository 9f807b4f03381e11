import Foundation

/// How an update check ended. Prints as `up to date: <files>` or `updated: <files>`.
public enum ModelUpdate: Sendable, Equatable, CustomStringConvertible {
    /// The server has nothing newer; the cached model is unchanged.
    case upToDate(ModelFiles)
    /// A new version was downloaded, checked and installed.
    case updated(ModelFiles)

    /// The model to use now.
    public var files: ModelFiles {
        switch self {
        case .upToDate(let files), .updated(let files): files
        }
    }

    public var description: String {
        switch self {
        case .upToDate(let files): "up to date: \(files)"
        case .updated(let files): "updated: \(files)"
        }
    }
}

/// A hosted model's cache: downloads it, checks for updates, and answers "is it downloaded?"
/// and "where is the latest model?" from the local disk.
///
/// ```swift
/// let store = ModelStore(model: hosted, cacheDirectory: cacheURL)
/// let files = try store.download(options: DownloadOptions(progress: { print($0.overallBytes) }))
/// let detector = try files.makeDetector()
/// ```
/// Downloads and updates never leave a half-written or unchecked model in the cache: files are
/// assembled beside it, checked (sizes, SHA-256, a full load), then switched in by one rename
/// (see `ModelCache`). The cached model stays usable throughout, by this process and others.
public struct ModelStore: Sendable {
    /// The model's description.
    public let model: HostedModel
    /// The folder holding every model's cache folder (chosen by the caller).
    public let cacheDirectory: URL
    /// What a download must pass before it is installed.
    public let validation: ModelValidation
    private var cache: ModelCache { ModelCache(directory: cacheDirectory, model: model) }

    /// A store for `model` under `cacheDirectory`; touches nothing until asked.
    public init(model: HostedModel, cacheDirectory: URL, validation: ModelValidation = .loadsNetwork) {
        self.model = model
        self.cacheDirectory = cacheDirectory
        self.validation = validation
    }

    /// The latest installed model, whatever URLs it came from. No network.
    public var cachedModel: ModelFiles? {
        guard let installed = cache.installed() else { return nil }
        return Self.files(installed.folder, installed.manifest, id: installed.id)
    }

    /// Whether the cache holds this model as described (same URLs, and checksums where given).
    /// No network.
    public var isDownloaded: Bool {
        guard let manifest = cache.installed()?.manifest else { return false }
        return model.files.allSatisfy { Self.matches(manifest.files[$0.role], $0.file) }
            && (model.names != nil) == (manifest.files[.names] != nil)
    }

    /// The cached model if there is one, else the bundled one; no network. The one call for
    /// "the download failed: use what we have".
    /// - Throws: `.noModelAvailable` (naming the weights URL) when there is neither.
    public func availableModel() throws(ModelSourceError) -> ModelFiles {
        if let cached = cachedModel { return cached }
        if let bundled = model.bundled {
            return ModelFiles(cfg: bundled.cfg, weights: bundled.weights, names: bundled.names, origin: .bundled)
        }
        throw ModelSourceError(url: model.weights.url, reason: .noModelAvailable)
    }

    /// The model, downloaded if it is not in the cache yet (no network when it is). Blocks.
    public func download(options: DownloadOptions = DownloadOptions()) throws(ModelSourceError) -> ModelFiles {
        if isDownloaded, let cached = cachedModel { return cached }
        return try fetch(conditional: false, options: options).files
    }

    /// Asks the server whether any file changed (conditional requests with the ETag and
    /// Last-Modified it gave last time), downloads only the files that did, and installs the
    /// new version once it passes every check. Blocks. On any error the cached model is as it was.
    public func update(options: DownloadOptions = DownloadOptions()) throws(ModelSourceError) -> ModelUpdate {
        try fetch(conditional: true, options: options)
    }

    /// `download(options:)` for Swift concurrency: the transfer runs on a thread of its own
    /// while the calling task is suspended (no thread of the cooperative pool waits on the
    /// network), and cancelling the task cancels the download (`.cancelled`).
    public func download(options: DownloadOptions = DownloadOptions()) async throws(ModelSourceError) -> ModelFiles {
        try await onOwnThread(options) { options throws(ModelSourceError) in try download(options: options) }
    }

    /// `update(options:)` for Swift concurrency, on a thread of its own like `download`;
    /// cancelling the task cancels the check (`.cancelled`).
    public func update(options: DownloadOptions = DownloadOptions()) async throws(ModelSourceError) -> ModelUpdate {
        try await onOwnThread(options) { options throws(ModelSourceError) in try update(options: options) }
    }

    /// Runs `body` on a new thread and resumes the calling task with its result; cancelling the
    /// task sets the download's cancellation flag.
    private func onOwnThread<T: Sendable>(
        _ options: DownloadOptions, _ body: @escaping @Sendable (DownloadOptions) throws(ModelSourceError) -> T
    ) async throws(ModelSourceError) -> T {
        var options = options
        let cancellation = options.cancellation ?? DownloadCancellation()
        options.cancellation = cancellation
        let run = options
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ModelSourceError>, Never>) in
                let thread = Thread {
                    continuation.resume(returning: Result { () throws(ModelSourceError) -> T in try body(run) })
                }
                thread.name = "SwiftDarknet.ModelStore"
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    // MARK: Fetching

    private func fetch(conditional: Bool, options: DownloadOptions) throws(ModelSourceError) -> ModelUpdate {
        let cache = self.cache
        try cache.prepare()
        let lock = try CacheLock(cache.lockFile, timeout: max(options.idleTimeout, 1))
        defer { withExtendedLifetime(lock) {} }
        cache.collectGarbage()
        let installed = cache.installed()
        let staging = try cache.makeStaging()
        defer { try? FileManager.default.removeItem(at: staging.folder) }
        var progress = OverallProgress(files: model.files.count, report: options.progress)
        var entries: [ModelFileRole: CacheManifest.Entry] = [:]
        for (role, file) in model.files {
            let previous = installed.flatMap { Self.matches($0.manifest.files[role], file) ? $0.manifest.files[role] : nil }
            let destination = staging.folder.appendingPathComponent(role.cachedFileName)
            if let previous, let installed, !conditional {
                // Unchanged description and no update asked for: keep the installed file.
                try DurableFiles.link(installed.folder.appendingPathComponent(role.cachedFileName), to: destination)
                entries[role] = previous
                progress.skip()
                continue
            }
            entries[role] = try fetchFile(role, file, previous: previous, installed: installed?.folder,
                                          into: destination, options: options, progress: &progress)
        }
        let manifest = CacheManifest(files: entries)
        if let installed, manifest == installed.manifest {
            return .upToDate(Self.files(installed.folder, installed.manifest, id: installed.id))
        }
        // Same bytes under new validators (a redeployed server) are recorded but are no update.
        let contentChanged = installed.map { old in
            old.manifest.files.mapValues(\.sha256) != entries.mapValues(\.sha256)
        } ?? true
        try check(staging.folder, manifest)
        try cache.publish(staging: staging.folder, id: staging.id, manifest: manifest)
        cache.collectGarbage()
        let files = Self.files(cache.versions.appendingPathComponent(staging.id), manifest, id: staging.id)
        if !contentChanged { return .upToDate(files) }
        return .updated(files)
    }

    /// One file into the staging folder: a conditional or resumed transfer, then size and checksum.
    private func fetchFile(_ role: ModelFileRole, _ file: RemoteFile, previous: CacheManifest.Entry?, installed: URL?,
                           into destination: URL, options: DownloadOptions,
                           progress: inout OverallProgress) throws(ModelSourceError) -> CacheManifest.Entry {
        let cache = self.cache
        let resume = cache.resumable(role, url: file.url)
        var request = TransferRequest(url: file.url, partFile: cache.partFile(role))
        if let resume {
            request.resumeOffset = resume.offset
            request.resumeValidator = resume.validators.rangeValidator
        }
        request.ifNoneMatch = previous?.validators.etag
        request.ifModifiedSince = previous?.validators.etag == nil ? previous?.validators.lastModified : nil
        let reporter = progress.reporter(role: role, url: file.url)
        let url = file.url.absoluteString
        let callbacks = TransferCallbacks(
            started: { validators, _ in cache.recordResumeState(role, ResumeState(url: url, validators: validators)) },
            progress: { bytes, total in reporter.report(bytes, total) })
        let outcome: TransferOutcome
        do {
            outcome = try Transfer.run(request, options: options, callbacks: callbacks)
        } catch {
            guard case .httpStatus(let status) = error.reason else { throw error }  // cut, timed out: resumable
            cache.discardPartial(role)
            // 416: the part file already held the whole file (killed before it was moved on); start over.
            guard status == 416, request.resumeOffset > 0 else { throw error }
            request.resumeOffset = 0
            request.resumeValidator = nil
            outcome = try Transfer.run(request, options: options, callbacks: callbacks)
        }
        switch outcome {
        case .notModified:
            guard let previous, let installed else {
                throw ModelSourceError(url: file.url, reason: .network("304 Not Modified to an unconditional request"))
            }
            try DurableFiles.link(installed.appendingPathComponent(role.cachedFileName), to: destination)
            progress.skip()
            return previous
        case .complete(let bytes, let validators):
            progress.finish(bytes)
            let digest = try Self.digest(of: cache.partFile(role))
            if let expected = file.sha256, expected != digest {
                cache.discardPartial(role)
                throw ModelSourceError(url: file.url, reason: .checksumMismatch(expected: expected, actual: digest))
            }
            try DurableFiles.rename(cache.partFile(role), to: destination)
            cache.discardPartial(role)
            return CacheManifest.Entry(url: url, sha256: digest, size: bytes, validators: validators)
        }
    }

    /// The staged files must load; a model that does not is never installed.
    private func check(_ folder: URL, _ manifest: CacheManifest) throws(ModelSourceError) {
        let files = Self.files(folder, manifest, id: "staging")
        do {
            try validation.check(files)
        } catch {
            let role = ModelValidation.role(of: error, files: files)
            let url = URL(string: manifest.files[role]?.url ?? "") ?? model.weights.url
            throw ModelSourceError(url: url, reason: .doesNotLoad(String(describing: error)))
        }
    }

    private static func files(_ folder: URL, _ manifest: CacheManifest, id: String) -> ModelFiles {
        ModelFiles(cfg: folder.appendingPathComponent(ModelFileRole.cfg.cachedFileName),
                   weights: folder.appendingPathComponent(ModelFileRole.weights.cachedFileName),
                   names: manifest.files[.names] == nil ? nil : folder.appendingPathComponent(ModelFileRole.names.cachedFileName),
                   origin: .cache(version: id))
    }

    private static func matches(_ entry: CacheManifest.Entry?, _ file: RemoteFile) -> Bool {
        guard let entry else { return false }
        return entry.url == file.url.absoluteString && (file.sha256 == nil || file.sha256 == entry.sha256)
    }

    /// The SHA-256 of a file, read in 1 MB blocks.
    static func digest(of url: URL) throws(ModelSourceError) -> String {
        do { return try ModelChecksum.hex(contentsOf: url) } catch { throw DurableFiles.cacheError(url, error.reason) }
    }
}

extension TransferValidators {
    /// Whether a conditional request can be made with these.
    var canCheck: Bool { etag != nil || lastModified != nil }
}
