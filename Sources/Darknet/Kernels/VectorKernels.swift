import CDarknetKernels

/// One compiled set of the vector kernels (`CDarknetKernels/kernel_sets.h`): the float
/// convolutions, Winograd, element-wise passes, pooling and pixel conversion of one
/// instruction-set target. A plan picks one from its CPU's features (`NetworkPlan.vectorKernels`)
/// and every kernel call names the set it runs: nothing reads a process-wide setting, so tests
/// run every set side by side.
///
/// Every set computes the same sums in the same order per output element; they differ only in
/// FMA rounding.
package enum VectorKernels: Int32, Sendable, CaseIterable, CustomStringConvertible {
    /// 4 lanes: SSE2 on x86-64, Advanced SIMD on arm64, plain vectors elsewhere.
    case portable = 0
    /// 8 lanes, AVX2 + FMA.
    case avx2 = 1
    /// 16 lanes, AVX-512F + FMA.
    case avx512 = 2
    /// 4 lanes, Advanced SIMD, with register blocks for arm64's 32 vector registers (the
    /// portable set's sums; `arm/VectorNEON.c`).
    case neon = 3

    /// The set's functions. Only for a set the CPU runs (`CPUFeatures.runs`).
    @inline(__always)
    package var functions: UnsafePointer<swiftdarknet_vector_kernels> {
        guard let table = swiftdarknet_vector_kernel_set(rawValue) else {
            preconditionFailure("the \(self) vector kernels are not compiled into this build")
        }
        return table
    }

    /// Whether a CPU of `architecture` with `extensions` runs the set, as its C table declares
    /// (and this build has it).
    package func runs(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> Bool {
        guard let table = swiftdarknet_vector_kernel_set(rawValue) else { return false }
        return CPUFeatures.runs(declaredArchitecture: table.pointee.architecture,
                                required: table.pointee.required_extensions, on: architecture, extensions)
    }

    /// The widest set a CPU of `architecture` with `extensions` runs (the last of `allCases`
    /// that runs: on arm64 NEON, the portable set's width with larger blocks).
    package static func best(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> VectorKernels {
        allCases.last { $0.runs(on: architecture, extensions) } ?? .portable
    }

    /// Floats per vector.
    package var lanes: Int { Int(functions.pointee.lanes) }

    /// The fastest set the running CPU executes: for work outside a plan (pixel conversion).
    package static let native = best(on: CPUFeatures.compiledArchitecture, .running)

    package var description: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avx512: "avx512"
        case .neon: "neon"
        }
    }
}
