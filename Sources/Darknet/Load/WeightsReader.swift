import CDarknetKernels

/// Reads a `.weights` file front to back, accounting for every byte.
struct WeightsReader {
    /// Where the bytes are.
    enum Source {
        case memory(UnsafeRawBufferPointer)
        case file(WeightsFile)
    }

    let file: String
    private let source: Source
    /// Bytes in the file (when it was opened).
    let size: Int
    private(set) var offset = 0
    /// The layer being read, for error messages.
    var layer: Int?
    /// How many floats a weight transform reads at a time (see `UncheckedFloats`).
    var floatsPerRun = UncheckedFloats.defaultFloatsPerRun

    /// A reader of bytes in memory, named `file` in errors.
    init(file: String, bytes: UnsafeRawBufferPointer) {
        self.file = file
        source = .memory(bytes)
        size = bytes.count
    }

    /// A reader of an open file.
    init(file: WeightsFile) {
        self.file = file.path
        source = .file(file)
        size = file.size
    }

    var remaining: Int { size - offset }

    /// Largest major, minor or revision number accepted in a header.
    static let maxVersion: Int32 = 65_535

    func error(_ reason: WeightsError.Reason, at offset: Int? = nil) -> WeightsError {
        WeightsError(file: file, layer: layer, offset: offset ?? self.offset, reason: reason)
    }

    /// Copies the `count` bytes at `offset` to `destination`; the caller has checked that the
    /// file (as opened) holds them.
    private func copy(_ count: Int, at offset: Int, parameter: String,
                      into destination: UnsafeMutableRawPointer) throws(WeightsError) {
        switch source {
        case .memory(let bytes):
            Self.copyBytes(count, from: bytes.baseAddress! + offset, to: destination)
        case .file(let file):
            if let failure = file.read(count, at: offset, into: destination) {
                throw error(.unreadable(parameter: parameter, reason: failure.reason), at: failure.offset)
            }
        }
    }

    /// `copyMemory` out of line: inlined, it ended `copy` in a tail call to `memmove`, and Swift
    /// 6.0's aarch64 code generator does not restore the error register before such a call
    /// (swiftlang/swift#90477), so a successful copy from memory read as a thrown error.
    @inline(never)
    private static func copyBytes(_ count: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        destination.copyMemory(from: source, byteCount: count)
    }

    /// The file's `WeightsFingerprint`, read without moving the reader.
    func fingerprint() throws(WeightsError) -> WeightsFingerprint {
        try WeightsFingerprint(size: size) { (offset, count, block) throws(WeightsError) in
            try copy(count, at: offset, parameter: "the sample of its fingerprint", into: block.baseAddress!)
        }
    }

    mutating func readHeader() throws(WeightsError) -> WeightsHeader {
        guard remaining >= 12 else { throw error(.truncatedHeader(needed: 16, available: remaining)) }
        let header = withUnsafeTemporaryAllocation(byteCount: 20, alignment: 8) { buffer in
            Result { () throws(WeightsError) in
                try copy(min(size, 20), at: 0, parameter: "header", into: buffer.baseAddress!)
                return try readHeader(from: UnsafeRawBufferPointer(rebasing: buffer[0..<min(size, 20)]))
            }
        }
        guard case .failure(var failure) = header, case .invalidVersion = failure.reason else { return try header.get() }
        failure.looksLike = firstBytesLookLike()
        throw failure
    }

    /// `FileSignature`'s guess from the file's first bytes.
    private func firstBytesLookLike() -> String? {
        let count = min(size, FileSignature.prefixLength)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(WeightsError) in try copy(count, at: 0, parameter: "header", into: buffer.baseAddress!) }
        }
        guard case .success = read else { return nil }
        return FileSignature.guess(bytes)
    }

    private mutating func readHeader(from bytes: UnsafeRawBufferPointer) throws(WeightsError) -> WeightsHeader {
        let major = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: Int32.self))
        let minor = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: Int32.self))
        let revision = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int32.self))
        // Darknet writes 0.1.0 and 0.2.0 (its fork 0.2.5); Darknet reads major/minor above 1000
        // as "transposed". Anything negative or beyond 16 bits is not a weights file at all
        // (the bytes of a .cfg, an image or an archive), and is reported as such rather than
        // as a truncated or oversized file further on.
        guard (0...Self.maxVersion).contains(major), (0...Self.maxVersion).contains(minor),
              (0...Self.maxVersion).contains(revision) else {
            throw error(.invalidVersion(major: major, minor: minor, revision: revision))
        }
        let wide = WeightsHeader.hasWideSeen(major: major, minor: minor)
        let size = wide ? 20 : 16
        guard remaining >= size else { throw error(.truncatedHeader(needed: size, available: remaining)) }
        let seen = wide
            ? UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            : UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
        offset = size
        return WeightsHeader(major: major, minor: minor, revision: revision, seen: seen, byteCount: size)
    }

    /// Reads `count` float32 values named `parameter`, rejecting NaN and infinity.
    mutating func readFloats(_ count: Int, parameter: String) throws(WeightsError) -> [Float] {
        let needed = count * 4
        guard remaining >= needed else {
            throw error(.truncated(parameter: parameter, neededBytes: needed, availableBytes: remaining))
        }
        let start = offset
        var failure: WeightsError?
        var values = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            _ = swiftdarknet_prefault_write(base, needed)
            do throws(WeightsError) {
                try copy(needed, at: start, parameter: parameter, into: base)
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        #if _endian(big)
        for i in values.indices { values[i] = Float(bitPattern: UInt32(littleEndian: values[i].bitPattern)) }
        #endif
        if let bad = firstNonFinite(values) {
            throw error(.nonFinite(parameter: parameter, element: bad), at: start + bad * 4)
        }
        offset += needed
        return values
    }

    /// The next `count` float32 values named `parameter`, unchecked, for a weight transform to
    /// read a run at a time, when the file's bytes are this machine's floats (little-endian); nil
    /// (nothing read) otherwise. Bytes in memory are read where they lie (when 4-byte aligned). The
    /// caller checks the values in its own pass (NaN and infinity) before it uses what it made of
    /// them, and on failure rewinds and reads them again with `readFloats`, which names the bad
    /// value.
    mutating func uncheckedFloats(_ count: Int, parameter: String) throws(WeightsError) -> UncheckedFloats? {
        #if _endian(big)
        return nil
        #else
        let needed = count * 4
        guard remaining >= needed else {
            throw error(.truncated(parameter: parameter, neededBytes: needed, availableBytes: remaining))
        }
        guard count > 0 else { return nil }
        let floats: UncheckedFloats
        switch source {
        case .memory(let bytes):
            guard let base = bytes.baseAddress, Int(bitPattern: base + offset) % 4 == 0 else { return nil }
            floats = UncheckedFloats(memory: (base + offset).assumingMemoryBound(to: Float.self), count: count,
                                     floatsPerRun: floatsPerRun)
        case .file(let file):
            floats = UncheckedFloats(file: file, offset: offset, count: count, layer: layer, parameter: parameter,
                                     floatsPerRun: floatsPerRun)
        }
        offset += needed
        return floats
        #endif
    }

    /// Moves back to `offset` (an offset this reader has been at), to read again.
    mutating func rewind(to offset: Int) {
        precondition(offset >= 0 && offset <= self.offset)
        self.offset = offset
    }

    /// Fails unless every byte has been read.
    func finish() throws(WeightsError) {
        guard remaining == 0 else { throw WeightsError(file: file, layer: nil, offset: offset, reason: .trailingBytes(count: remaining)) }
    }
}

/// Index of the first NaN or infinity (checked through the exponent bits, branch-free per value).
func firstNonFinite(_ values: UnsafeBufferPointer<Float>) -> Int? {
    guard let base = values.baseAddress else { return nil }
    let bits = UnsafeRawPointer(base).assumingMemoryBound(to: UInt32.self)
    var all: UInt32 = 0
    // Fast pass: a value is non-finite iff its exponent is all ones.
    for i in 0..<values.count { all |= ((bits[i] & 0x7F80_0000) &+ 0x0080_0000) & 0x8000_0000 }
    guard all != 0 else { return nil }
    return values.firstIndex { !$0.isFinite }
}

/// `firstNonFinite` of an array.
func firstNonFinite(_ values: [Float]) -> Int? {
    values.withUnsafeBufferPointer { firstNonFinite($0) }
}
