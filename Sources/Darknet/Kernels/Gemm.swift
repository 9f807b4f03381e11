#if canImport(Accelerate)
import Accelerate
#else
import COpenBLAS
#endif

/// Single-precision matrix product through the platform BLAS (OpenBLAS, or Accelerate on
/// Apple platforms): `C = A * B + beta * C`, all row-major, no transposes.
/// `A` is `m x k`, `B` is `k x n`, `C` is `m x n`.
@inline(__always)
func sgemm(m: Int, n: Int, k: Int,
           a: UnsafePointer<Float>, lda: Int,
           b: UnsafePointer<Float>, ldb: Int,
           beta: Float = 0,
           c: UnsafeMutablePointer<Float>, ldc: Int) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
}

/// How many threads the BLAS uses for one call.
enum BLASThreads {
    static func set(_ count: Int) {
        #if !canImport(Accelerate)
        openblas_set_num_threads(Int32(count))
        #endif
    }

    static var current: Int {
        #if canImport(Accelerate)
        return 1
        #else
        return Int(openblas_get_num_threads())
        #endif
    }
}
