/// What the planner needs to know of the BLAS the float GEMMs run on.
public struct BLASFeatures: Sendable, Hashable, CustomStringConvertible {
    /// The kernel family: OpenBLAS's core name (`Haswell`, `SkylakeX`, `Zen`, `NeoverseN1`, ...),
    /// `Accelerate` on Apple platforms, `unavailable` when the BLAS cannot be opened.
    public var kernelFamily: String
    /// Whether its GEMM gives every output the same bits however a large GEMM is cut into row
    /// or column pieces (``invariantFamilies``): then the forward pass splits each GEMM by
    /// threads; otherwise by the GEMM's shape alone. Either way results do not depend on the
    /// thread count.
    public var cutsInvariantly: Bool

    public init(kernelFamily: String, cutsInvariantly: Bool) {
        self.kernelFamily = kernelFamily
        self.cutsInvariantly = cutsInvariantly
    }

    /// The features of OpenBLAS kernel family `kernelFamily` (any case), whether it cuts
    /// invariantly taken from ``invariantFamilies``.
    public init(kernelFamily: String) {
        self.init(kernelFamily: kernelFamily, cutsInvariantly: Self.invariantFamilies.contains(kernelFamily.lowercased()))
    }

    /// OpenBLAS kernel families (lower case, as `openblas_get_corename` names them) whose sgemm
    /// gives every output of a large GEMM the same bits however it is cut into row or column
    /// pieces: the probe (`BLAS.measureCutsInvariantly()`) passes under each. x86-64, measured
    /// with OpenBLAS 0.3.21 on an AMD Zen 5: SkylakeX, Cooperlake, Sandybridge, Nehalem, Prescott,
    /// Core2, Penryn, Dunnington, Atom, Barcelona and Nano pass; Haswell and Zen do not (their sums
    /// depend on the call's shape). SapphireRapids (OpenBLAS runs Cooperlake when asked for it
    /// there), ARMv8, NeoverseN1 and NeoverseV1 come from the table `info --plan --blas` had
    /// before. A family not listed (not measured, one that fails, or Accelerate) is cut by shape:
    /// slower on two threads or more, never bits that depend on the thread count.
    /// `BLASFamilyTests` checks this table against the probe under OpenBLAS's own choice and every
    /// family it can be forced to (`OPENBLAS_CORETYPE`) on the machine the tests run on.
    public static let invariantFamilies: Set<String> = [
        "skylakex", "cooperlake", "sapphirerapids", "sandybridge", "nehalem", "prescott", "core2", "penryn", "dunnington",
        "atom", "barcelona", "nano", "armv8", "neoversen1", "neoversev1",
    ]

    /// Whether its GEMM kernels use AVX-512: OpenBLAS's SkylakeX, Cooperlake and SapphireRapids
    /// families; not its Haswell or Zen ones, which it also runs on AVX-512 CPUs when
    /// `OPENBLAS_CORETYPE` says so.
    public var hasAVX512Kernels: Bool {
        ["skylakex", "cooperlake", "sapphirerapids"].contains(kernelFamily.lowercased())
    }

    /// The BLAS of this process, opened on first use, on the caller's thread: the family
    /// OpenBLAS reports, looked up in ``invariantFamilies`` (no GEMM is run).
    public static let current: BLASFeatures = {
        guard (try? BLAS.ensureLoaded()) != nil else { return BLASFeatures(kernelFamily: "unavailable", cutsInvariantly: false) }
        return BLASFeatures(kernelFamily: BLAS.kernelName)
    }()

    public var description: String { "\(kernelFamily)\(cutsInvariantly ? "" : " (cuts by shape)")" }
}
