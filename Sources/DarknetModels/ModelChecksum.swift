import Darknet
import Foundation

/// SHA-256 (FIPS 180-4), streaming: feed bytes with `update`, read the digest with `finalize`.
/// The checksum `RemoteFile.sha256` and the cache's manifest hold.
///
/// Written here because the package may depend on nothing outside the toolchain; checked
/// against the FIPS test vectors and `sha256sum` (`SHA256Tests`). Formerly `SHA256` (a
/// deprecated alias remains): renamed so as not to collide with CryptoKit's `SHA256`.
public struct ModelChecksum: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var block = [UInt8](repeating: 0, count: 64)
    private var blockCount = 0
    private var messageBytes: UInt64 = 0

    /// A hasher with nothing added yet.
    public init() {}

    /// The hex digest of `bytes`, lower case.
    public static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = ModelChecksum()
        hasher.update(Array(bytes))
        return hasher.finalize().hexString
    }

    /// The hex digest of the file at `url`, lower case, read in 1 MB blocks.
    /// - Throws: `FileError` when the file cannot be opened or read.
    public static func hex(contentsOf url: URL) throws(FileError) -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw FileError(path: url.path, reason: "cannot be read") }
        defer { try? handle.close() }
        var hasher = ModelChecksum()
        while true {
            let block: Data
            do { block = try handle.read(upToCount: 1 << 20) ?? Data() } catch { throw FileError(path: url.path, reason: "read failed: \(error)") }
            if block.isEmpty { break }
            block.withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finalize().hexString
    }

    /// Adds bytes to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        messageBytes &+= UInt64(bytes.count)
        if blockCount > 0 {
            while blockCount < 64, index < bytes.count {
                block[blockCount] = bytes[index]
                blockCount += 1
                index += 1
            }
            if blockCount == 64 {
                block.withUnsafeBytes { compress($0) }
                blockCount = 0
            }
        }
        while bytes.count - index >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 64)]))
            index += 64
        }
        while index < bytes.count {
            block[blockCount] = bytes[index]
            blockCount += 1
            index += 1
        }
    }

    /// Adds bytes to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added so far.
    public func finalize() -> Digest {
        var copy = self
        let bitLength = messageBytes &* 8
        var padding: [UInt8] = [0x80]
        let used = (blockCount + 1) % 64
        padding += [UInt8](repeating: 0, count: used <= 56 ? 56 - used : 120 - used)
        for shift in stride(from: 56, through: 0, by: -8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        copy.update(padding)
        let words = [copy.state.0, copy.state.1, copy.state.2, copy.state.3,
                     copy.state.4, copy.state.5, copy.state.6, copy.state.7]
        return Digest(bytes: words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } })
    }

    private mutating func compress(_ chunk: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(chunk[4 * i]) << 24 | UInt32(chunk[4 * i + 1]) << 16
                    | UInt32(chunk[4 * i + 2]) << 8 | UInt32(chunk[4 * i + 3])
            }
            for i in 16..<64 {
                let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            for i in 0..<64 {
                let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choice &+ Self.k[i] &+ w[i]
                let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                     state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

extension ModelChecksum {
    /// A SHA-256 digest.
    public struct Digest: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// The 32 digest bytes.
        public let bytes: [UInt8]
        /// Lower-case hex, as `sha256sum` prints it.
        public var hexString: String {
            let digits = Array("0123456789abcdef")
            return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        }
        /// The hex digest.
        public var description: String { hexString }
    }
}

/// The former name of `ModelChecksum`. While it exists, a file importing both CryptoKit and
/// DarknetModels writes `CryptoKit.SHA256` for CryptoKit's.
@available(*, deprecated, renamed: "ModelChecksum")
public typealias SHA256 = ModelChecksum

/// The former name of `ModelChecksum.Digest`.
@available(*, deprecated, renamed: "ModelChecksum.Digest")
public typealias SHA256Digest = ModelChecksum.Digest

extension UInt32 {
    @inline(__always) fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
