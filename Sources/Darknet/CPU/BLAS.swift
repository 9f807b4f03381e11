#if canImport(Accelerate)
import Accelerate
#else
import COpenBLAS
#endif

/// The platform BLAS: Accelerate on Apple platforms, OpenBLAS (opened at run time, or taken as
/// it is where another library loaded it first, with the kernels OpenBLAS chooses for the CPU or
/// `OPENBLAS_CORETYPE` names; see `COpenBLAS/shim.h`) elsewhere.
public enum BLAS {
    /// Why the BLAS could not be used.
    public struct Unavailable: DarknetError, Equatable, Sendable {
        public let description: String
    }

    #if !canImport(Accelerate)
    nonisolated(unsafe) private static var functions = swiftdarknet_blas()
    /// Opened once, on first use, on the calling thread (a global `let` initialiser runs exactly
    /// once; a thread that asks while another is opening waits for it). Nothing about the BLAS
    /// ever runs on a thread of its own: a probe still running when the process exits would race
    /// OpenBLAS's and libgfortran's exit handlers.
    private static let loaded: Bool = swiftdarknet_blas_load(&functions) == 0
    #endif

    /// Opens the BLAS if it is not yet (OpenBLAS takes 5-10 ms to open and set up). Every
    /// `Network` initialiser calls this.
    /// - Throws: `Unavailable` when OpenBLAS cannot be opened.
    public static func ensureLoaded() throws(Unavailable) {
        #if !canImport(Accelerate)
        guard loaded else {
            throw Unavailable(description: "OpenBLAS (libopenblas.so.0) could not be opened: install Debian's libopenblas0 (or libopenblas-dev)")
        }
        #endif
    }

    /// Kept for source compatibility: the BLAS now opens when first needed, on the caller's thread.
    @available(*, deprecated, message: "the BLAS opens on first use; call ensureLoaded() to open it early")
    public static func beginLoading() {}

    /// The kernel family the BLAS runs (OpenBLAS's core name), for reports.
    public static var kernelName: String {
        #if canImport(Accelerate)
        return "Accelerate"
        #else
        guard loaded, let name = functions.corename?() else { return "unknown" }
        return String(cString: name)
        #endif
    }

    /// Smallest GEMM (multiply-adds, m·n·k) the forward pass splits over threads, and smallest
    /// share it hands each thread. Below about this size OpenBLAS may take its unpacked "direct"
    /// or small-matrix kernels (x86-64: under 28·512·512), whose rounding depends on the shape, so
    /// a GEMM cut in two would differ in the last bit from the same GEMM whole (32 x 676 x 32 split
    /// by columns: 104 of 21,632 outputs). At least this size every call takes the packed kernels,
    /// where each output sums the same products in the same order however the output is cut:
    /// results do not depend on the thread count.
    package static let splitInvariantMultiplyAdds = 28 * 512 * 512

    /// Measures whether the BLAS gives every output of a large GEMM the same bits however the
    /// GEMM is cut into row or column pieces, each at least `splitInvariantMultiplyAdds`, by
    /// multiplying a 128 x 512 by a 512 x 512 matrix whole, in two row halves and in two column
    /// halves (three GEMMs, about 100 MFLOP). The library does not run it: planning consults
    /// ``BLASFeatures/invariantFamilies``, a table of OpenBLAS's kernel families, which
    /// `BLASFamilyTests` checks against this probe under every family OpenBLAS can be forced to
    /// on the test machine. `ensureLoaded()` must have succeeded.
    @_spi(Testing)
    public static func measureCutsInvariantly() -> Bool {
        let m = 128, n = 512, k = 512
        var state: UInt32 = 12345
        func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / 16_777_216 - 0.5
        }
        let a = (0..<m * k).map { _ in next() }, b = (0..<k * n).map { _ in next() }
        var whole = [Float](repeating: 0, count: m * n), rows = whole, columns = whole
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let a = a.baseAddress!, b = b.baseAddress!
                whole.withUnsafeMutableBufferPointer { sgemm(m: m, n: n, k: k, a: a, lda: k, b: b, ldb: n, c: $0.baseAddress!, ldc: n) }
                rows.withUnsafeMutableBufferPointer { c in
                    for half in 0..<2 {
                        sgemm(m: m / 2, n: n, k: k, a: a + half * m / 2 * k, lda: k, b: b, ldb: n,
                              c: c.baseAddress! + half * m / 2 * n, ldc: n)
                    }
                }
                columns.withUnsafeMutableBufferPointer { c in
                    for half in 0..<2 {
                        sgemm(m: m, n: n / 2, k: k, a: a, lda: k, b: b + half * n / 2, ldb: n,
                              c: c.baseAddress! + half * n / 2, ldc: n)
                    }
                }
            }
        }
        func sameBits(_ x: Float, _ y: Float) -> Bool { x.bitPattern == y.bitPattern }
        return whole.elementsEqual(rows, by: sameBits) && whole.elementsEqual(columns, by: sameBits)
    }

    /// Sets how many threads one BLAS call may use.
    package static func setThreads(_ count: Int) {
        #if !canImport(Accelerate)
        functions.set_num_threads(Int32(count))
        #endif
    }

    /// `C = A * B + beta * C`, single precision, row-major, no transposes.
    /// `A` is `m x k`, `B` is `k x n`, `C` is `m x n`. `ensureLoaded()` must have succeeded.
    @inline(__always)
    package static func sgemm(m: Int, n: Int, k: Int,
                      a: UnsafePointer<Float>, lda: Int,
                      b: UnsafePointer<Float>, ldb: Int,
                      beta: Float = 0,
                      c: UnsafeMutablePointer<Float>, ldc: Int) {
        #if canImport(Accelerate)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                    Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
        #else
        functions.sgemm(Int32(SWIFTDARKNET_CBLAS_ROW_MAJOR), Int32(SWIFTDARKNET_CBLAS_NO_TRANS),
                        Int32(SWIFTDARKNET_CBLAS_NO_TRANS),
                        Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
        #endif
    }
}
