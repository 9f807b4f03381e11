#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Darknet

/// Whole-file reads and writes with POSIX calls, so failures carry `strerror` text.
enum FileIO {
    /// The bytes of the file at `path`; refuses files longer than `maxBytes`.
    static func readFile(path: String, maxBytes: Int) throws(ImageFileError) -> [UInt8] {
        // Opened as the library opens every file, so a missing file or a directory is worded
        // as for a cfg or weights file.
        let fd: Int32, size: Int
        do {
            (fd, size) = try FileError.openRegularFile(path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        defer { close(fd) }
        guard size <= maxBytes else {
            throw .unreadable(path: path, reason: "file is \(size) bytes, more than any image within the pixel limit (\(maxBytes))")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let got = bytes.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress! + filled, size - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.lastError())
            }
            if got == 0 { break }  // the file shrank while being read
            filled += got
        }
        if filled < size { bytes.removeLast(size - filled) }
        return bytes
    }

    /// Writes `bytes` to `path`, replacing it: into a temporary file beside it, then renamed.
    static func writeFile(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: Self.lastError()) }
        var written = 0
        while written < bytes.count {
            let put = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress! + written, bytes.count - written)
            }
            if put < 0 {
                if errno == EINTR { continue }
                let reason = Self.lastError()
                close(fd)
                unlink(temporary)
                throw .writeFailed(path: path, reason: reason)
            }
            written += put
        }
        if close(fd) != 0 {
            let reason = Self.lastError()
            unlink(temporary)
            throw .writeFailed(path: path, reason: reason)
        }
        if rename(temporary, path) != 0 {
            let reason = Self.lastError()
            unlink(temporary)
            throw .writeFailed(path: path, reason: reason)
        }
    }

    private static func lastError() -> String {
        FileError.reason(errno: errno)
    }
}
