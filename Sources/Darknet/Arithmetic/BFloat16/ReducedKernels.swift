import CDarknetKernels

/// One compiled set of the reduced-precision float kernels (`CDarknetKernels/reduced.h`): the
/// bfloat16 packing and GEMM of one instruction-set target. Which architecture and CPU
/// extensions a set needs is declared once, in its C table, and read from there.
package enum ReducedKernels: Int32, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain C: VDPBF16PS's arithmetic, the reference the others match bit for bit.
    case portable = 0
    /// VDPBF16PS on zmm registers (AVX512_BF16).
    case avx512 = 1

    /// The set's functions, or nil when this build has none for its target.
    package var table: UnsafePointer<swiftdarknet_bf16_kernels>? { swiftdarknet_bf16_kernel_set(rawValue) }

    /// The set's functions. Only for a set the CPU runs.
    package var functions: UnsafePointer<swiftdarknet_bf16_kernels> {
        guard let table else { preconditionFailure("the \(self) bfloat16 kernels are not compiled into this build") }
        return table
    }

    /// Whether a CPU of `architecture` with `extensions` runs the set, as its table declares (and
    /// this build has it).
    package func runs(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> Bool {
        guard let table else { return false }
        return CPUFeatures.runs(declaredArchitecture: table.pointee.architecture,
                                required: table.pointee.required_extensions, on: architecture, extensions)
    }

    /// The set with SIMD bfloat16 products this CPU runs, or nil: without one, bfloat16 would
    /// only be slower than float32, and the planner keeps float32.
    package static func best(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> ReducedKernels? {
        allCases.last { $0 != .portable && $0.runs(on: architecture, extensions) }
    }

    package var description: String { String(cString: functions.pointee.name) }
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
