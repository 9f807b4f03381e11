import CDarknetKernels

/// One compiled set of the reduced-precision float kernels (`CDarknetKernels/reduced.h`): the
/// 16-bit float packing and GEMM of one format (bfloat16 or float16) on one instruction-set
/// target. Which format, architecture and CPU extensions a set has, and which portable set it
/// equals bit for bit, is declared once, in its C table, and read from there.
package enum ReducedKernels: Int32, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain C: VDPBF16PS's arithmetic, the bfloat16 reference.
    case portable = 0
    /// VDPBF16PS on zmm registers (AVX512_BF16).
    case avx512 = 1
    /// Plain C: FMLAL's arithmetic (fmaf of exact half products), the float16 reference.
    case portableFloat16 = 2
    /// Plain C: FMLA's arithmetic on half lanes, in half sums of 8 products added into float32,
    /// the reference of `.fmla`.
    case portableHalfSums = 7
    /// FMLA by element on half lanes on arm64 (FEAT_FP16), its half sums added into float32 every
    /// 8 products: the float16 set of CPUs without FEAT_FHM. Declared before `.fhm`, which a CPU
    /// with both runs (`best` takes the last that runs): FMLAL sums in float32 throughout.
    case fmla = 8
    /// FMLAL/FMLAL2 on arm64 (FEAT_FP16 and FEAT_FHM).
    case fhm = 3
    /// Plain C: BFDOT's arithmetic (round to odd, FEAT_EBF16 off), the arm64 bfloat16 reference.
    case portableARM = 4
    /// BFDOT on arm64 (FEAT_BF16).
    case bfdot = 5
    /// BFMMLA on arm64 (FEAT_BF16): BFDOT's sums in 2x2 blocks, the set a CPU with BF16 runs.
    case bfmmla = 6

    /// The set's functions, or nil when this build has none for its target.
    package var table: UnsafePointer<swiftdarknet_bf16_kernels>? { swiftdarknet_bf16_kernel_set(rawValue) }

    /// The set's functions. Only for a set the CPU runs (a set of another architecture may have
    /// a table, so that plans for such a CPU name it, but no working functions).
    package var functions: UnsafePointer<swiftdarknet_bf16_kernels> {
        guard let table else { preconditionFailure("the \(self) reduced-precision kernels are not compiled into this build") }
        let declared = CPUFeatures.Architecture(kernelArchitecture: table.pointee.architecture)
        precondition(declared == .other || declared == CPUFeatures.compiledArchitecture,
                     "the \(rawValue) reduced-precision kernels are for \(declared), not \(CPUFeatures.compiledArchitecture)")
        return table
    }

    /// Whether a CPU of `architecture` with `extensions` runs the set, as its table declares (and
    /// this build has it).
    package func runs(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> Bool {
        guard let table else { return false }
        return CPUFeatures.runs(declaredArchitecture: table.pointee.architecture,
                                required: table.pointee.required_extensions, on: architecture, extensions)
    }

    /// The arithmetic the set computes in (`.bfloat16` or `.float16`), as its table declares.
    package var arithmetic: Arithmetic {
        guard let table else { preconditionFailure("the \(self) reduced-precision kernels have no table in this build") }
        return table.pointee.format == Int32(SWIFTDARKNET_REDUCED_FP16) ? .float16 : .bfloat16
    }

    /// The portable set this one equals bit for bit (itself for a portable set).
    package var reference: ReducedKernels { table.flatMap { ReducedKernels(rawValue: $0.pointee.reference) } ?? self }

    /// Whether the set is plain C (an emulation, any architecture).
    package var isPortable: Bool { reference == self }

    /// The sets with SIMD products in `arithmetic` (every arithmetic if nil) that a CPU of
    /// `architecture` with `extensions` runs, in case order (the order of declaration, the
    /// planner's preference last).
    package static func simdSets(_ arithmetic: Arithmetic?, on architecture: CPUFeatures.Architecture,
                                 _ extensions: CPUFeatures.Extensions) -> [ReducedKernels] {
        allCases.filter { !$0.isPortable && (arithmetic == nil || $0.arithmetic == arithmetic) && $0.runs(on: architecture, extensions) }
    }

    /// The set with SIMD products in `arithmetic` this CPU runs (the last of `simdSets`), or nil:
    /// without one, the reduced arithmetic would only be slower than float32, and the planner
    /// keeps float32.
    package static func best(_ arithmetic: Arithmetic, on architecture: CPUFeatures.Architecture,
                             _ extensions: CPUFeatures.Extensions) -> ReducedKernels? {
        simdSets(arithmetic, on: architecture, extensions).last
    }

    package var description: String { table.map { String(cString: $0.pointee.name) } ?? "\(rawValue)" }
}

extension CPUFeatures {
    /// Whether a CPU of `architecture` with `extensions` runs a C kernel table that declares
    /// `declaredArchitecture` (`SWIFTDARKNET_ARCH_*`; other: any) and the `required` extension bits.
    static func runs(declaredArchitecture: Int32, required: UInt32, on architecture: Architecture,
                     _ extensions: Extensions) -> Bool {
        let declared = Architecture(kernelArchitecture: declaredArchitecture)
        return (declared == .other || declared == architecture) && extensions.isSuperset(of: Extensions(rawValue: required))
    }
}

extension CPUFeatures.Architecture {
    /// The architecture a C kernel table declares (`SWIFTDARKNET_ARCH_*`).
    init(kernelArchitecture: Int32) {
        self = switch kernelArchitecture {
        case Int32(SWIFTDARKNET_ARCH_X86_64): .x86_64
        case Int32(SWIFTDARKNET_ARCH_ARM64): .arm64
        default: .other
        }
    }
}
