import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system steps atomic installation rests on: flush to disk, rename over, link.
enum DurableFiles {
    /// Flushes a file's or a directory's contents (and, for a directory, its entries) to disk.
    static func sync(_ url: URL) throws(ModelSourceError) {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw cacheError(url, "cannot be opened to flush") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw cacheError(url, "fsync failed") }
    }

    /// Renames `source` to `destination`, replacing a file there in one step (POSIX `rename`).
    static func rename(_ source: URL, to destination: URL) throws(ModelSourceError) {
        #if canImport(Glibc)
        let status = Glibc.rename(source.path, destination.path)
        #else
        let status = Darwin.rename(source.path, destination.path)
        #endif
        guard status == 0 else { throw cacheError(destination, "rename from \(source.lastPathComponent) failed: \(errnoText())") }
    }

    /// Writes `data` to `url` so that a reader sees the old content or the whole new one:
    /// a temporary file beside it, flushed, renamed over it, and the directory flushed.
    static func replace(_ url: URL, with data: Data) throws(ModelSourceError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(UInt32.random(in: 0...UInt32.max))")
        do { try data.write(to: temporary) } catch { throw cacheError(temporary, "cannot be written: \(error)") }
        do {
            try sync(temporary)
            try rename(temporary, to: url)
            try sync(url.deletingLastPathComponent())
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// A second name for an installed file (no copy); copies where hard links are not possible.
    static func link(_ source: URL, to destination: URL) throws(ModelSourceError) {
        do {
            try FileManager.default.linkItem(at: source, to: destination)
        } catch {
            do { try FileManager.default.copyItem(at: source, to: destination) } catch {
                throw cacheError(destination, "cannot link or copy \(source.path): \(error)")
            }
        }
    }

    static func cacheError(_ url: URL, _ message: String) -> ModelSourceError {
        ModelSourceError(url: url, reason: .cache(message))
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// An exclusive `flock` on a file, so two processes never download into one cache folder at
/// once; the system drops it when the process ends, however it ends.
final class CacheLock {
    private let fd: Int32

    /// Takes the lock, waiting up to `timeout` seconds for another holder.
    init(_ url: URL, timeout: Double) throws(ModelSourceError) {
        fd = open(url.path, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { throw DurableFiles.cacheError(url, "lock file cannot be opened: \(DurableFiles.errnoText())") }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                close(fd)
                throw DurableFiles.cacheError(url, "another process is downloading this model (waited \(timeout) s)")
            }
            usleep(100_000)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
