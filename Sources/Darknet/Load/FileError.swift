import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be opened or read: a cfg, a weights file, a names or `.data` file.
///
/// Every file the library opens goes through `openRegularFile`, so the same problem reads the
/// same whichever file it is: `yolov3.cfg: No such file or directory`, `x.weights: is a
/// directory`, `coco.names: Permission denied` (images report the same reasons as
/// `ImageFileError.unreadable` in DarknetImage).
public struct FileError: DarknetError, Equatable, Sendable {
    /// The path as given.
    public let path: String
    /// What went wrong (the system's words, or `is a directory`, `is not a regular file`).
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

extension FileError {
    /// The reason for a directory given where a file is expected.
    package static let directoryReason = "is a directory"
    /// The reason for a device, socket or pipe given where a file is expected.
    package static let notRegularReason = "is not a regular file"

    /// The system's words for `code` (`No such file or directory`).
    package static func reason(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Opens `path` for reading; fails unless it is a regular file. The caller closes the
    /// descriptor.
    package static func openRegularFile(_ path: String) throws(FileError) -> (descriptor: Int32, size: Int) {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer (a hang, not an error);
        // reads of regular files ignore the flag.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError(path: path, reason: reason(errno: errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = reason(errno: errno)
            close(descriptor)
            throw FileError(path: path, reason: reason)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileError(path: path, reason: status.st_mode & S_IFMT == S_IFDIR ? directoryReason : notRegularReason)
        }
        return (descriptor, Int(status.st_size))
    }
}

extension FileError {
    /// A whole file's bytes, read as the library reads cfg, names and `.data` files, so that a
    /// tool's other inputs fail with the same words.
    public static func contents(of url: URL) throws(FileError) -> [UInt8] {
        try readFile(url)
    }
}

/// A whole small file's bytes (a cfg, a names or `.data` file).
func readFile(_ url: URL) throws(FileError) -> [UInt8] {
    let path = url.path
    let (descriptor, size) = try FileError.openRegularFile(path)
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
        let got = bytes.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + filled, size - filled) }
        if got < 0 {
            if errno == EINTR { continue }
            throw FileError(path: path, reason: FileError.reason(errno: errno))
        }
        if got == 0 { break }  // the file shrank while it was read
        filled += got
    }
    bytes.removeLast(size - filled)
    return bytes
}
