import CDarknetKernels

/// The instruction sets the int8 GEMM is compiled for (`darknet_int8.h`). Unlike `SIMDLevel`
/// there is no global limit: every call names its variant, so tests can run each one side by
/// side and threads never race on a setting.
package enum Int8Variant: Int32, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain C: the reference the others must match bit for bit.
    case portable = 0
    /// ymm `vpmaddubsw` + `vpmaddwd` on nibble-split activations (exact; no VNNI needed).
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
