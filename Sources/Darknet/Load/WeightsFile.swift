import CDarknetKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open `.weights` file, read with `pread` at the offsets the reader asks for.
///
/// The file is read, not memory-mapped: if another program cuts it short while it loads, a read
/// of a mapped page past its new end would kill the process (SIGBUS), where `pread` returns
/// fewer bytes, which the reader reports. Only the layer being read is held in memory, not the
/// whole file.
final class WeightsFile {
    let path: String
    /// Bytes in the file when it was opened.
    let size: Int
    private let descriptor: Int32
    /// Where `staged` reads to, grown to the largest request.
    private var staging: UnsafeMutableRawPointer?
    private var stagingCapacity = 0

    /// Opens a regular file for reading.
    init(opening path: String) throws(FileError) {
        (descriptor, size) = try FileError.openRegularFile(path)
        self.path = path
    }

    deinit {
        close(descriptor)
        staging?.deallocate()
    }

    /// Why a read stopped short: at byte `offset`, for `reason`.
    struct ShortRead {
        let offset: Int
        let reason: String
    }

    /// Reads `count` bytes at `offset` into `destination`; nil when all were read, else where and
    /// why it stopped (the file shrank since it was opened, or the system's error).
    func read(_ count: Int, at offset: Int, into destination: UnsafeMutableRawPointer) -> ShortRead? {
        var done = 0
        while done < count {
            let got = pread(descriptor, destination + done, count - done, off_t(offset + done))
            if got > 0 {
                done += got
            } else if got == 0 {
                var status = stat()
                let now = fstat(descriptor, &status) == 0 ? "\(status.st_size) bytes" : "shorter"
                return ShortRead(offset: offset + done,
                                 reason: "the file was cut short while it was read (\(size) bytes when opened, now \(now))")
            } else if errno != EINTR {
                return ShortRead(offset: offset + done, reason: Self.describe(errno))
            }
        }
        return nil
    }

    /// A buffer of at least `count` bytes, 64-byte aligned, owned by this file and reused: valid
    /// until the next call.
    func stagingBuffer(_ count: Int) -> UnsafeMutableRawPointer {
        if count > stagingCapacity {
            staging?.deallocate()
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
            // Backed in one call, not a page fault per 4 KiB (see `swiftdarknet_prefault_write`).
            _ = swiftdarknet_prefault_write(buffer, count)
            staging = buffer
            stagingCapacity = count
        }
        return staging!
    }

    private static func describe(_ code: Int32) -> String {
        FileError.reason(errno: code)
    }
}
