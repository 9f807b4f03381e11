import CDarknetKernels

/// One compiled set of the integer kernels (`CDarknetKernels/kernel_sets.h`): the int8 GEMM and
/// the direct convolutions in 8 and 16 bits, by the instructions that multiply. A plan picks one
/// for its int8 layers from its CPU's features (`LayerPlan.int8`); every call names its set, so
/// tests run each one side by side and threads never race on a setting. Every set computes the
/// same integers.
package enum IntegerKernels: Int32, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain C: the reference the others must match bit for bit.
    case portable = 0
    /// ymm `vpmaddubsw` + `vpmaddwd` (no VNNI needed): on nibble-split activations, or on whole
    /// bytes for weights within ±63 (`narrowLimit`), which cannot saturate; exact either way.
    case avx2 = 1
    /// ymm VEX `vpdpbusd` (AVX-VNNI).
    case avxVNNI = 2
    /// zmm `vpdpbusd` (AVX-512 VNNI + BW + VL).
    case avx512VNNI = 3
    /// The AVX-VNNI tile compiled EVEX-encoded for AVX-512 VNNI + VL: runs that source on CPUs
    /// with AVX-512 VNNI but no AVX-VNNI. Never chosen by `best`.
    case avxVNNIOnAVX512 = 4
    /// arm64 Advanced SIMD without dot products: operands widened to int16, `smlal` (four
    /// products per instruction, as many as a float `fmla`).
    case neon = 6
    /// arm64 `SDOT` by element (FEAT_DotProd) on activations flipped to x - 128, corrected by 128
    /// times the row's weight sum.
    case dotProduct = 7
    /// arm64 `USDOT` by element (FEAT_I8MM): unsigned activations x signed weights, as `vpdpbusd`.
    case i8mm = 8

    /// The sets `best` considers, fastest first.
    static let preferenceOrder: [IntegerKernels] = [.avx512VNNI, .avxVNNI, .avx2, .i8mm, .dotProduct, .neon, .portable]

    /// The fastest set a CPU of `architecture` with `extensions` runs.
    package static func best(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> IntegerKernels {
        preferenceOrder.first { $0.runs(on: architecture, extensions) } ?? .portable
    }

    /// Whether a CPU of `architecture` with `extensions` runs the set, as its C table declares
    /// (and this build has it).
    package func runs(on architecture: CPUFeatures.Architecture, _ extensions: CPUFeatures.Extensions) -> Bool {
        guard let table = swiftdarknet_integer_kernel_set(rawValue) else { return false }
        return CPUFeatures.runs(declaredArchitecture: table.pointee.architecture,
                                required: table.pointee.required_extensions, on: architecture, extensions)
    }

    /// The fastest set the running CPU executes.
    package static let native = best(on: CPUFeatures.compiledArchitecture, .running)

    /// Whether the running CPU executes the set.
    package var runsHere: Bool { runs(on: CPUFeatures.compiledArchitecture, .running) }

    /// Whether the set multiplies 8-bit values without a dot-product instruction: no faster
    /// than float (see `CPUFeatures.int8WithoutDotProduct`). x86's AVX2 and arm64's NEON set (the
    /// portable one is what a CPU without either runs; the planner does not reckon with it).
    package var lacksDotProduct: Bool { self == .avx2 || self == .neon }

    /// Weights within ±63 (7 bits) run AVX2's plain `vpmaddubsw` kernel, twice as fast as the
    /// nibble split (`CDarknetKernels/integer.h`).
    package static let narrowLimit = Int32(SWIFTDARKNET_INT8_NARROW_LIMIT)

    /// Smallest K whose weights a plan quantizes to 7 bits where the fastest set is `.avx2`
    /// (and, in `Int8FloatLayers.default`, the smallest K such a CPU runs in integers at all):
    /// YOLOv3-tiny's 3x3 convolutions from 256 channels up. Measured with its real weights
    /// (Sources/Darknet/Arithmetic/README.md): from 1024 up, the accuracy bounds held with no
    /// margin left; from 2304 up, with margin, at the same speed within the noise.
    package static let narrowDepth = 2304

    /// The limit a plan for a CPU whose fastest set is this one quantizes a convolution's weights
    /// to (K = `depth`), the same for every set a test then runs, so that all of them give the
    /// same answer: 7 bits (`narrowLimit`) for `.avx2` where K is at least `narrowDepth`, else 127.
    /// arm64's `.neon` keeps 127: its `smlal` multiplies 7-bit weights no faster than 8-bit ones.
    package func plannedWeightLimit(depth: Int) -> Int32 {
        self == .avx2 && depth >= Self.narrowDepth ? Self.narrowLimit : 127
    }

    /// The C functions that multiply `weights`: for `.avx2`, AVX2's whole-byte kernels when the
    /// weights are within `narrowLimit`; else the set's own. Same sums either way.
    package func functions(for weights: Int8PackedWeights) -> UnsafePointer<swiftdarknet_integer_kernels> {
        self == .avx2 && weights.largestMagnitude <= Self.narrowLimit ? Self.table(Int32(SWIFTDARKNET_INT8_AVX2_NARROW)) : functions
    }

    /// The set's functions. Only for a set the CPU runs (`CPUFeatures.runs`).
    package var functions: UnsafePointer<swiftdarknet_integer_kernels> { Self.table(rawValue) }

    private static func table(_ variant: Int32) -> UnsafePointer<swiftdarknet_integer_kernels> {
        guard let table = swiftdarknet_integer_kernel_set(variant) else {
            preconditionFailure("integer kernel set \(variant) is not compiled into this build")
        }
        return table
    }

    package var description: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avxVNNI: "avx-vnni"
        case .avx512VNNI: "avx512-vnni"
        case .avxVNNIOnAVX512: "avx-vnni-evex"
        case .neon: "neon"
        case .dotProduct: "dotprod"
        case .i8mm: "i8mm"
        }
    }
}
