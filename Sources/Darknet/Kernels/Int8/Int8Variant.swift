import CDarknetKernels

/// The instruction sets the int8 GEMM is compiled for (`darknet_int8.h`). Unlike `SIMDLevel`
/// there is no global limit: every call names its variant, so tests can run each one side by
/// side and threads never race on a setting.
package enum Int8Variant: Int32, Sendable, CaseIterable, CustomStringConvertible {
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

    /// Whether this CPU runs the variant.
    package var isSupported: Bool { swiftdarknet_int8_supported(rawValue) != 0 }

    /// Weights within ±63 (7 bits) run AVX2's plain `vpmaddubsw` kernel, twice as fast as the
    /// nibble split (`darknet_int8.h`).
    package static let narrowLimit = Int32(SWIFTDARKNET_INT8_NARROW_LIMIT)

    /// Smallest K whose weights a plan quantizes to 7 bits where the fastest variant is `.avx2`
    /// (and, in `Int8FloatLayers.default`, the smallest K such a CPU runs in integers at all):
    /// YOLOv3-tiny's 3x3 convolutions from 256 channels up. Measured with its real weights
    /// (Sources/Darknet/Quantize/README.md): from 1024 up, the accuracy bounds held with no
    /// margin left; from 2304 up, with margin, at the same speed within the noise.
    package static let narrowDepth = 2304

    /// The limit a plan quantizes a convolution's weights to (K = `depth`), the same for every
    /// variant on one CPU so that all of them give the same answer: 7 bits (`narrowLimit`)
    /// where the fastest variant is `.avx2` and K is at least `narrowDepth`, else 127.
    package static func plannedWeightLimit(depth: Int) -> Int32 {
        withoutVNNI && depth >= narrowDepth ? narrowLimit : 127
    }

    /// Whether this CPU's fastest variant is `.avx2` (no VNNI): the case the 7-bit weights and
    /// `Int8FloatLayers.minimumDepthWithoutVNNI` are for.
    package static var withoutVNNI: Bool { best == .avx2 }

    /// The C kernel that multiplies `weights`: for `.avx2`, the plain kernel when the weights
    /// are within `narrowLimit`; else the variant's own. Same sums either way.
    package func kernel(for weights: Int8PackedWeights) -> Int32 {
        self == .avx2 && weights.largestMagnitude <= Self.narrowLimit ? Int32(SWIFTDARKNET_INT8_AVX2_NARROW) : rawValue
    }

    /// The fastest variant this CPU runs.
    package static var best: Int8Variant { Int8Variant(rawValue: swiftdarknet_int8_best_variant()) ?? .portable }

    /// Every variant this CPU runs, portable first.
    package static var supported: [Int8Variant] { allCases.filter(\.isSupported) }

    package var description: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avxVNNI: "avx-vnni"
        case .avx512VNNI: "avx512-vnni"
        case .avxVNNIOnAVX512: "avx-vnni-evex"
        }
    }
}
