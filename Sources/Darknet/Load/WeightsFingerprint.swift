/// Tells `.weights` files apart cheaply: the file's size and a 64-bit FNV-1a hash of a sample
/// of its bytes (the whole file up to 64 KiB; beyond, 16 blocks of 4 KiB spread evenly from the
/// first byte to the last, the header included). An int8 calibration records the fingerprint of
/// the weights it was measured with (`Int8Calibration.weights`), and a network loaded with other
/// weights refuses it: retraining changes every block, so the ranges of another model's
/// activations are never applied silently. A sample, not a checksum: it does not prove a file
/// intact.
public struct WeightsFingerprint: Sendable, Equatable, CustomStringConvertible {
    /// The file's size in bytes.
    public let bytes: Int
    /// FNV-1a (64-bit) over the sampled bytes, in file order.
    public let sample: UInt64

    /// Bytes in each sampled block.
    public static let blockBytes = 4096
    /// Blocks sampled from a file larger than `blockBytes * blockCount`.
    public static let blockCount = 16

    public init(bytes: Int, sample: UInt64) {
        self.bytes = bytes
        self.sample = sample
    }

    /// The fingerprint of `size` bytes, reading each sampled range through `read(offset, count,
    /// into)`.
    init<Failure: Error>(size: Int, read: (Int, Int, UnsafeMutableRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        var hash = FNV1a64()
        try withUnsafeTemporaryAllocation(byteCount: Self.blockBytes, alignment: 16) { block in
            Result { () throws(Failure) in
                for (offset, count) in Self.sampledRanges(size: size) {
                    let range = UnsafeMutableRawBufferPointer(rebasing: block[0..<count])
                    try read(offset, count, range)
                    hash.add(UnsafeRawBufferPointer(range))
                }
            }
        }.get()
        self.init(bytes: size, sample: hash.value)
    }

    /// The `(offset, count)` ranges sampled from a file of `size` bytes, in file order.
    static func sampledRanges(size: Int) -> [(offset: Int, count: Int)] {
        let whole = blockBytes * blockCount
        if size <= whole {
            return stride(from: 0, to: size, by: blockBytes).map { ($0, min(blockBytes, size - $0)) }
        }
        return (0..<blockCount).map { block in (block * (size - blockBytes) / (blockCount - 1), blockBytes) }
    }

    /// "35,434,956 bytes, sample 0123456789abcdef".
    public var description: String { "\(groupedDigits(bytes)) bytes, sample \(hexSample)" }

    /// `sample` as 16 lowercase hex digits (the sidecar's spelling).
    public var hexSample: String {
        let digits = String(sample, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// 64-bit FNV-1a, byte by byte.
private struct FNV1a64 {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }
}
