/// The bytes behind a `PixelBuffer`'s planes: an array it owns, or memory it borrows until the
/// last buffer using it is gone, when it calls `release` (once).
final class PixelStorage: @unchecked Sendable {
    // Invariant: neither the array nor the borrowed memory is written after init, so concurrent
    // reads from any thread are safe.
    private let array: [UInt8]
    private let borrowed: UnsafeRawBufferPointer?
    private let release: (@Sendable () -> Void)?

    init(array: [UInt8]) {
        self.array = array
        borrowed = nil
        release = nil
    }

    init(borrowing memory: UnsafeRawBufferPointer, release: @escaping @Sendable () -> Void) {
        array = []
        borrowed = memory
        self.release = release
    }

    deinit { release?() }

    var count: Int { borrowed?.count ?? array.count }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let borrowed { return try body(borrowed) }
        return try array.withUnsafeBytes(body)
    }
}
