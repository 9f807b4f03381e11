/// How the GEMM paths spread one `sgemm` over a session's threads, decided at plan time from the
/// BLAS (`BLASFeatures.cutsInvariantly`, from its kernel family): by the threads where every cut
/// gives every output the same bits, else by the GEMM's shape alone, the same at any thread
/// count. Either way results do not depend on the thread count.
struct GEMMCutting: Sendable, Equatable {
    /// Whether the BLAS cuts invariantly.
    let invariant: Bool

    /// Pieces of a GEMM cut by its shape alone when the BLAS's sums depend on the call's shape:
    /// two per core of this project's machine, each at least `BLAS.splitInvariantMultiplyAdds`.
    static let shapeCutPieces = 4

    init(_ blas: BLASFeatures) { invariant = blas.cutsInvariantly }

    /// `c = a b` (`m x k` times `k x n`, row-major, leading dimensions `k`, `n`, `n`) spread over
    /// `split`. Each thread reads all of the matrix it does not split: the filters (rows) are
    /// split when the weights are the larger operand (deep, small layers), else the output
    /// columns. Every piece is large enough for OpenBLAS's packed kernels
    /// (`BLAS.splitInvariantMultiplyAdds`), and there is one per thread, none left over for a
    /// thread that finishes early: each piece packs the other operand again (YOLOv3's 3x3/2 256 ->
    /// 512: a 4.7 MB copy); with four pieces per thread that layer took 7.6-9.6 ms at 2 threads
    /// in quiet minutes, against 6.1-6.5 ms.
    func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>,
                  split: ThreadSplit) {
        let minimumShare = BLAS.splitInvariantMultiplyAdds
        let threads = invariant ? split.threads : Self.shapeCutPieces
        if m > n {
            let rowsPerShare = max(16, (minimumShare + n * k - 1) / max(n * k, 1), m / threads)
            pieces(m, minimumPiece: rowsPerShare, split: split) { rows in
                BLAS.sgemm(m: rows.count, n: n, k: k, a: a + rows.lowerBound * k, lda: k, b: b, ldb: n,
                           c: c + rows.lowerBound * n, ldc: n)
            }
        } else {
            let columnsPerShare = max(64, (minimumShare + m * k - 1) / max(m * k, 1), n / threads)
            pieces(n, minimumPiece: columnsPerShare, split: split) { span in
                BLAS.sgemm(m: m, n: span.count, k: k, a: a, lda: k, b: b + span.lowerBound, ldb: n,
                           c: c + span.lowerBound, ldc: n)
            }
        }
    }

    /// Runs `body` over pieces of `0..<count`: split over the threads, at least `minimumPiece`
    /// long, where the BLAS cuts invariantly; else in fixed pieces of `minimumPiece` (the last
    /// shorter), whichever threads run them.
    private func pieces(_ count: Int, minimumPiece: Int, split: ThreadSplit, _ body: (Range<Int>) -> Void) {
        guard !invariant else {
            split(count, minimumPiece: minimumPiece) { range, _ in body(range) }
            return
        }
        let pieces = (count + minimumPiece - 1) / minimumPiece
        split(pieces) { range, _ in
            for piece in range { body(piece * minimumPiece..<min(count, (piece + 1) * minimumPiece)) }
        }
    }
}
