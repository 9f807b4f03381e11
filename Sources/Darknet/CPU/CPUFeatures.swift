import CDarknetKernels

/// What a processor can execute, as far as the planner's choices go: its architecture, its
/// instruction-set extensions and the BLAS it runs the GEMMs with.
///
/// A plan is a function of the network, the options and these features
/// (`PlanOptions.cpu`, the running machine's by default): the same cfg plans the same way for
/// the same features on any machine, and a test can plan "as an AVX2 CPU without VNNI" or "as an
/// arm64 CPU with dot products" and check the algorithms chosen. A network only loads a plan whose
/// kernels the running CPU executes (`PlanError.Reason.cpuMismatch`).
public struct CPUFeatures: Sendable, Hashable, CustomStringConvertible {
    /// An instruction-set architecture.
    public enum Architecture: String, Sendable, Hashable {
        case x86_64 = "x86-64"
        case arm64
        case other
    }

    /// Instruction-set extensions the kernels use.
    public struct Extensions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let avx2 = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX2))
        public static let fma = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_FMA))
        public static let avx512f = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512F))
        public static let avx512bw = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512BW))
        public static let avx512dq = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512DQ))
        public static let avx512vl = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512VL))
        /// AVX-512 VNNI (`vpdpbusd` on zmm registers).
        public static let avx512vnni = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512VNNI))
        /// AVX-VNNI (VEX-encoded `vpdpbusd` on ymm registers).
        public static let avxVNNI = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVXVNNI))
        /// AVX-512 BF16 (`vdpbf16ps`: pairs of bfloat16 products summed into float32).
        public static let avx512bf16 = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512BF16))
        /// AVX-512 FP16 (half-precision arithmetic on zmm registers).
        public static let avx512fp16 = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_AVX512FP16))
        /// arm64 Advanced SIMD.
        public static let neon = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_NEON))
        /// arm64 `SDOT`/`UDOT` (FEAT_DotProd, ARMv8.2).
        public static let dotProduct = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_DOTPROD))
        /// arm64 `SMMLA`/`USMMLA` (FEAT_I8MM, ARMv8.6).
        public static let i8mm = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_I8MM))
        /// arm64 SVE.
        public static let sve = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_SVE))
        /// arm64 half-precision arithmetic (FEAT_FP16).
        public static let fp16 = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_FP16))
        /// arm64 `BFDOT`/`BFMMLA` (FEAT_BF16, ARMv8.6).
        public static let bf16 = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_BF16))
        /// arm64 `FMLAL`/`FMLAL2`: half-precision products added into float32 (FEAT_FHM).
        public static let fhm = Extensions(rawValue: UInt32(SWIFTDARKNET_CPU_FHM))

        /// AVX-512 F, BW, DQ and VL: what OpenBLAS's SkylakeX kernels and the library's
        /// AVX-512 int8 kernels need besides VNNI.
        public static let avx512 = Extensions([.avx512f, .avx512bw, .avx512dq, .avx512vl])

        /// The running CPU's extensions (read once).
        public static let running = Extensions(rawValue: swiftdarknet_cpu_extensions())
    }

    public var architecture: Architecture
    public var extensions: Extensions
    /// The BLAS the float GEMMs run on.
    public var blas: BLASFeatures
    /// Bytes of level-2 cache per core, or nil when unknown (the cache-blocked paths that need
    /// a band to fit it are then planned as on a 512 KiB L2, see `WinogradBands`).
    public var l2CacheBytes: Int?

    /// A processor described by hand, to plan for another machine (`current` is the running one).
    ///
    /// - Parameters:
    ///   - architecture: The instruction set.
    ///   - extensions: Its extensions the CPU and operating system support.
    ///   - blas: The BLAS the float GEMMs run on.
    ///   - l2CacheBytes: Level-2 cache per core; nil: unknown.
    ///
    /// ```swift
    /// let zen4 = CPUFeatures(architecture: .x86_64, extensions: [.avx2, .fma, .avx512, .avx512bf16],
    ///                        blas: BLASFeatures(kernelFamily: "Cooperlake"), l2CacheBytes: 1 << 20)
    /// ```
    public init(architecture: Architecture, extensions: Extensions, blas: BLASFeatures, l2CacheBytes: Int? = nil) {
        self.architecture = architecture
        self.extensions = extensions
        self.blas = blas
        self.l2CacheBytes = l2CacheBytes
    }

    /// The running CPU's level-2 cache per core (read once; nil when the system does not say).
    public static let runningL2CacheBytes: Int? = {
        let bytes = swiftdarknet_cpu_l2_cache_bytes()
        return bytes > 0 ? Int(bytes) : nil
    }()

    /// The architecture this library was compiled for (what `current` reports).
    public static let compiledArchitecture = Architecture(kernelArchitecture: swiftdarknet_cpu_architecture())

    /// The running machine: its extensions and L2 size read once, its BLAS opened on first use
    /// (`BLASFeatures.current`: OpenBLAS's kernel family, looked up in a table; no GEMM is run).
    public static var current: CPUFeatures {
        CPUFeatures(architecture: compiledArchitecture, extensions: .running, blas: .current,
                    l2CacheBytes: runningL2CacheBytes)
    }

    /// An x86-64 CPU with AVX2 and FMA (and, optionally, AVX-512 and either VNNI), for planning as
    /// another machine; `blas` defaults to OpenBLAS's kernels for it (SkylakeX with AVX-512,
    /// else Haswell, which cuts by shape: ``BLASFeatures/invariantFamilies``).
    public static func x86_64(avx512: Bool = false, avx512VNNI: Bool = false, avxVNNI: Bool = false,
                              avx512BF16: Bool = false, blas: BLASFeatures? = nil) -> CPUFeatures {
        var extensions: Extensions = [.avx2, .fma]
        if avx512 || avx512VNNI || avx512BF16 { extensions.formUnion(.avx512) }
        if avx512VNNI { extensions.insert(.avx512vnni) }
        if avxVNNI { extensions.insert(.avxVNNI) }
        if avx512BF16 { extensions.insert(.avx512bf16) }
        let family = extensions.contains(.avx512) ? "SkylakeX" : "Haswell"
        return CPUFeatures(architecture: .x86_64, extensions: extensions,
                           blas: blas ?? BLASFeatures(kernelFamily: family))
    }

    /// An arm64 CPU (Advanced SIMD, optionally dot products, I8MM, half-precision arithmetic,
    /// half products into float32 (FHM, which needs `fp16`) and BF16), for planning as another
    /// machine; `blas` defaults to OpenBLAS's ARMv8 kernels (which cut invariantly:
    /// ``BLASFeatures/invariantFamilies``).
    public static func arm64(dotProduct: Bool = false, i8mm: Bool = false, fp16: Bool = false, fhm: Bool = false,
                             bf16: Bool = false, blas: BLASFeatures? = nil) -> CPUFeatures {
        var extensions: Extensions = [.neon]
        if dotProduct { extensions.insert(.dotProduct) }
        if i8mm { extensions.insert(.i8mm) }
        if fp16 || fhm { extensions.insert(.fp16) }
        if fhm { extensions.insert(.fhm) }
        if bf16 { extensions.insert(.bf16) }
        return CPUFeatures(architecture: .arm64, extensions: extensions,
                           blas: blas ?? BLASFeatures(kernelFamily: "ARMV8"))
    }

    /// The vector kernel set the planner picks: the widest this CPU runs and this build has.
    package var vectorKernels: VectorKernels { .best(on: architecture, extensions) }

    /// The integer kernel set the planner picks for int8 layers: the fastest this CPU runs.
    package var integerKernels: IntegerKernels { .best(on: architecture, extensions) }

    /// The kernel set the planner picks for layers in `arithmetic` (`.bfloat16`, `.float16`):
    /// `pinned` where it computes in that arithmetic (tests pin a portable set), else the best
    /// this CPU runs; nil where the CPU has no SIMD products in it (the layers then stay float32).
    package func reducedKernels(for arithmetic: Arithmetic, pinned: ReducedKernels? = nil) -> ReducedKernels? {
        if let pinned, pinned.arithmetic == arithmetic { return pinned }
        return .best(arithmetic, on: architecture, extensions)
    }

    /// The name of the kernel set the planner picks for layers in `arithmetic` (`avx512-bf16`,
    /// `fhm-fp16`), or `none`.
    public func reducedKernelsName(for arithmetic: Arithmetic) -> String {
        reducedKernels(for: arithmetic)?.description ?? "none"
    }

    /// The name of the bfloat16 kernel set the planner picks (`avx512-bf16`), or `none`.
    @available(*, deprecated, renamed: "reducedKernelsName(for:)")
    public var reducedKernelsName: String { reducedKernelsName(for: .bfloat16) }

    /// Every vector kernel set this CPU runs, portable first.
    package var supportedVectorKernels: [VectorKernels] { VectorKernels.allCases.filter(runs) }

    /// Every integer kernel set this CPU runs, portable first.
    package var supportedIntegerKernels: [IntegerKernels] { IntegerKernels.allCases.filter(runs) }

    /// Whether this CPU executes `kernels` (and this build has them).
    package func runs(_ kernels: VectorKernels) -> Bool { kernels.runs(on: architecture, extensions) }

    /// Whether this CPU executes `kernels` (and this build has them).
    package func runs(_ kernels: IntegerKernels) -> Bool { kernels.runs(on: architecture, extensions) }

    /// Whether the fastest integer kernels here multiply 8-bit values without a dot-product
    /// instruction (x86-64 with AVX2 but no VNNI): no faster than float, so the planner keeps
    /// short convolutions float (`Int8FloatLayers.minimumDepthWithoutVNNI`) and quantizes deep
    /// ones' weights to 7 bits (`IntegerKernels.narrowLimit`).
    package var int8WithoutDotProduct: Bool { integerKernels.lacksDotProduct }

    /// OpenBLAS kernel families without AVX2 (what it falls back to on a CPU model it does not
    /// know), lowercased.
    static let familiesWithoutAVX2: Set<String> = [
        "prescott", "core2", "penryn", "dunnington", "nehalem", "sandybridge", "atom", "barcelona", "opteron",
        "opteron_sse3", "bobcat", "bulldozer", "piledriver", "steamroller", "excavator", "katmai", "coppermine",
        "northwood", "banias", "athlon",
    ]

    /// One line to log when the BLAS runs kernels narrower than this x86-64 CPU's AVX2 (OpenBLAS
    /// did not know the CPU model and fell back), saying how to choose its family; nil otherwise.
    /// The library never chooses one itself: a family set inside a process would reach only the
    /// processes that open OpenBLAS after it, and families give different bits (`COpenBLAS/shim.h`).
    public var blasWarning: String? {
        guard architecture == .x86_64, extensions.isSuperset(of: [.avx2, .fma]),
              Self.familiesWithoutAVX2.contains(blas.kernelFamily.lowercased()) else { return nil }
        let family = extensions.isSuperset(of: .avx512) ? "SkylakeX" : "Haswell"
        return "OpenBLAS runs its \(blas.kernelFamily) kernels on a CPU with AVX2 (it did not recognise the CPU model): "
            + "the GEMMs run several times slower; set OPENBLAS_CORETYPE=\(family) in the environment before the program starts"
    }

    public var description: String {
        let names: [(Extensions, String)] = [
            (.avx2, "avx2"), (.fma, "fma"), (.avx512f, "avx512f"), (.avx512bw, "avx512bw"), (.avx512dq, "avx512dq"),
            (.avx512vl, "avx512vl"), (.avx512vnni, "avx512vnni"), (.avxVNNI, "avxvnni"), (.avx512bf16, "avx512bf16"),
            (.avx512fp16, "avx512fp16"), (.neon, "neon"), (.dotProduct, "dotprod"), (.i8mm, "i8mm"), (.sve, "sve"),
            (.fp16, "fp16"), (.fhm, "fhm"), (.bf16, "bf16"),
        ]
        let present = names.filter { extensions.contains($0.0) }.map(\.1)
        let l2 = l2CacheBytes.map { ", L2 \($0 >> 10) KiB" } ?? ""
        return "\(architecture.rawValue) [\(present.joined(separator: " "))], BLAS \(blas)\(l2)"
    }
}
