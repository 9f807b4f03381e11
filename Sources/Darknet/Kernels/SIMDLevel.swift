import CDarknetKernels

/// The instruction sets the C kernels (direct convolution, pooling) are compiled for.
package enum SIMDLevel: Int32, Sendable, CaseIterable {
    case baseline = 0, avx2 = 1, avx512 = 2

    /// The level the kernels run at (the widest the CPU supports unless limited).
    package static var current: SIMDLevel { SIMDLevel(rawValue: swiftdarknet_simd_level()) ?? .baseline }

    /// Limits the kernels to at most `level` (tests run every variant the CPU supports);
    /// returns the level in effect.
    @discardableResult
    package static func limit(to level: SIMDLevel) -> SIMDLevel {
        SIMDLevel(rawValue: swiftdarknet_limit_simd_level(level.rawValue)) ?? .baseline
    }
}
