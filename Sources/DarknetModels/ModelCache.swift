import Foundation

/// One model's folder in the cache directory, and the only code that changes it.
///
/// ```
/// <cache>/<model name>/
///   current              the name of the installed version (replaced by rename: atomic)
///   versions/<id>/       model.cfg, model.weights, model.names, manifest.json (never modified)
///   staging-<id>/        a version being assembled (renamed into versions/ when complete)
///   partial/<role>.part  an interrupted transfer, with <role>.json naming its URL and ETag
///   lock                 flock'ed while a download runs
/// ```
/// A version becomes visible only when `current` is renamed over, after its files and folder
/// were flushed to disk: a crash or kill at any moment leaves `current` naming the old complete
/// version or the new complete one. The version before the current one is kept, so a process
/// that read `current` just before the switch still finds its files.
struct ModelCache {
    let root: URL

    init(directory: URL, model: HostedModel) {
        root = directory.appendingPathComponent(model.folderName, isDirectory: true)
    }

    var versions: URL { root.appendingPathComponent("versions", isDirectory: true) }
    var partial: URL { root.appendingPathComponent("partial", isDirectory: true) }
    var currentPointer: URL { root.appendingPathComponent("current") }
    var lockFile: URL { root.appendingPathComponent("lock") }

    func partFile(_ role: ModelFileRole) -> URL { partial.appendingPathComponent("\(role).part") }
    func resumeFile(_ role: ModelFileRole) -> URL { partial.appendingPathComponent("\(role).json") }

    /// The installed version, if `current` names one whose files are all there at their sizes.
    /// Reads only the local disk.
    func installed() -> (id: String, folder: URL, manifest: CacheManifest)? {
        guard let data = try? Data(contentsOf: currentPointer),
              let id = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
              !id.isEmpty, !id.contains("/") else { return nil }
        let folder = versions.appendingPathComponent(id, isDirectory: true)
        guard let manifestData = try? Data(contentsOf: folder.appendingPathComponent(CacheManifest.fileName)),
              let manifest = CacheManifest.decode(manifestData), manifest.files[.cfg] != nil, manifest.files[.weights] != nil
        else { return nil }
        for (role, entry) in manifest.files {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(role.cachedFileName).path)
            guard (attributes?[.size] as? NSNumber)?.int64Value == entry.size else { return nil }
        }
        return (id, folder, manifest)
    }

    /// Creates the folders a download needs.
    func prepare() throws(ModelSourceError) {
        for folder in [root, versions, partial] {
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw DurableFiles.cacheError(folder, "cannot be created: \(error)")
            }
        }
    }

    /// A new, empty staging folder and the version id it will be installed as.
    func makeStaging() throws(ModelSourceError) -> (id: String, folder: URL) {
        let id = String(format: "%013lld-%08x", Int64(Date().timeIntervalSince1970 * 1000), UInt32.random(in: 0...UInt32.max))
        let folder = root.appendingPathComponent("staging-\(id)", isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) } catch {
            throw DurableFiles.cacheError(folder, "cannot be created: \(error)")
        }
        return (id, folder)
    }

    /// Makes a complete staging folder the current version: manifest written, everything
    /// flushed, folder renamed into `versions/`, then `current` replaced in one rename.
    func publish(staging: URL, id: String, manifest: CacheManifest) throws(ModelSourceError) {
        let manifestURL = staging.appendingPathComponent(CacheManifest.fileName)
        do { try manifest.encoded().write(to: manifestURL) } catch {
            throw DurableFiles.cacheError(manifestURL, "cannot be written: \(error)")
        }
        for role in manifest.files.keys { try DurableFiles.sync(staging.appendingPathComponent(role.cachedFileName)) }
        try DurableFiles.sync(manifestURL)
        try DurableFiles.sync(staging)
        let destination = versions.appendingPathComponent(id, isDirectory: true)
        try DurableFiles.rename(staging, to: destination)
        try DurableFiles.sync(versions)
        try DurableFiles.sync(root)
        try DurableFiles.replace(currentPointer, with: Data((id + "\n").utf8))
    }

    /// Removes staging folders, stray temporary files and versions older than the current one
    /// and the one before it. Call with the lock held.
    func collectGarbage() {
        let fileManager = FileManager.default
        let current = installed()?.id
        for name in (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? []
        where name.hasPrefix("staging-") || name.hasPrefix(".current.tmp-") {
            try? fileManager.removeItem(at: root.appendingPathComponent(name))
        }
        let ids = ((try? fileManager.contentsOfDirectory(atPath: versions.path)) ?? []).sorted()
        guard let current, let currentIndex = ids.firstIndex(of: current) else { return }
        let keep: Set<String> = currentIndex > 0 ? [current, ids[currentIndex - 1]] : [current]
        for id in ids where !keep.contains(id) {
            try? fileManager.removeItem(at: versions.appendingPathComponent(id))
        }
    }

    // MARK: Resuming

    /// The bytes an interrupted transfer of `url` left, and the validators they came from.
    func resumable(_ role: ModelFileRole, url: URL) -> (offset: Int64, validators: TransferValidators)? {
        guard let data = try? Data(contentsOf: resumeFile(role)),
              let state = try? JSONDecoder().decode(ResumeState.self, from: data),
              state.url == url.absoluteString, state.validators.rangeValidator != nil,
              let attributes = try? FileManager.default.attributesOfItem(atPath: partFile(role).path),
              let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0 else { return nil }
        return (size, state.validators)
    }

    /// Records what the part file's bytes belong to (before the first byte is written).
    func recordResumeState(_ role: ModelFileRole, _ state: ResumeState) {
        guard let data = try? JSONEncoder().encode(state) else { return }
        try? data.write(to: resumeFile(role), options: .atomic)
    }

    /// Forgets an interrupted transfer.
    func discardPartial(_ role: ModelFileRole) {
        try? FileManager.default.removeItem(at: resumeFile(role))
        try? FileManager.default.removeItem(at: partFile(role))
    }
}
