import Foundation

/// A `file://` model file: copied in 1 MB blocks with progress and cancellation; its
/// modification time and size stand in for an ETag, so update checks work as over HTTP.
enum LocalTransfer {
    static func run(_ request: TransferRequest, options: DownloadOptions,
                    callbacks: TransferCallbacks) throws(ModelSourceError) -> TransferOutcome {
        let path = request.url.path
        func fail(_ message: String) -> ModelSourceError { ModelSourceError(url: request.url, reason: .network(message)) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.int64Value else {
            throw fail("no such file (or not a regular file)")
        }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let validators = TransferValidators(etag: "\"file-\(String(format: "%.6f", modified))-\(size)\"", lastModified: nil)
        if let current = request.ifNoneMatch, current == validators.etag { return .notModified }
        guard let input = FileHandle(forReadingAtPath: path) else { throw fail("cannot be opened for reading") }
        defer { try? input.close() }
        _ = FileManager.default.createFile(atPath: request.partFile.path, contents: nil)
        guard let output = try? FileHandle(forWritingTo: request.partFile) else {
            throw ModelSourceError(url: request.partFile, reason: .cache("cannot be written"))
        }
        defer { try? output.close() }
        callbacks.started(validators, false)
        var copied: Int64 = 0
        while true {
            if options.cancellation?.isCancelled == true { throw ModelSourceError(url: request.url, reason: .cancelled) }
            let block: Data
            do { block = try input.read(upToCount: 1 << 20) ?? Data() } catch { throw fail("read failed: \(error)") }
            if block.isEmpty { break }
            do { try output.write(contentsOf: block) } catch {
                throw ModelSourceError(url: request.partFile, reason: .cache("write failed: \(error)"))
            }
            copied += Int64(block.count)
            callbacks.progress(copied, size)
        }
        guard copied == size else { throw ModelSourceError(url: request.url, reason: .truncated(expected: size, received: copied)) }
        return .complete(bytes: copied, validators: validators)
    }
}
