/// What the planner needs to know of the BLAS the float GEMMs run on.
public struct BLASFeatures: Sendable, Hashable, CustomStringConvertible {
    /// The kernel family: OpenBLAS's core name (`Haswell`, `SkylakeX`, `Zen`, `NeoverseN1`, ...),
    /// `Accelerate` on Apple platforms, `unavailable` when the BLAS cannot be opened.
    public var kernelFamily: String
    /// Whether its GEMM gives every output the same bits however a large GEMM is cut into row
    /// or column pieces (`BLAS.cutsInvariantly`): then the forward pass splits each GEMM by
    /// threads; otherwise by the GEMM's shape alone. Either way results do not depend on the
    /// thread count.
    public var cutsInvariantly: Bool

    public init(kernelFamily: String, cutsInvariantly: Bool) {
        self.kernelFamily = kernelFamily
        self.cutsInvariantly = cutsInvariantly
    }

    /// Whether its GEMM kernels use AVX-512: OpenBLAS's SkylakeX, Cooperlake and SapphireRapids
    /// families; not its Haswell or Zen ones, which it also runs on AVX-512 CPUs when
    /// `OPENBLAS_CORETYPE` says so.
    public var hasAVX512Kernels: Bool {
        ["skylakex", "cooperlake", "sapphirerapids"].contains(kernelFamily.lowercased())
    }

    /// The BLAS of this process, opened and probed on first use, on the caller's thread.
    public static let current: BLASFeatures = {
        guard (try? BLAS.ensureLoaded()) != nil else { return BLASFeatures(kernelFamily: "unavailable", cutsInvariantly: false) }
        return BLASFeatures(kernelFamily: BLAS.kernelName, cutsInvariantly: BLAS.cutsInvariantly)
    }()

    public var description: String { "\(kernelFamily)\(cutsInvariantly ? "" : " (cuts by shape)")" }
}
