extension ConvolutionAlgorithm {
    /// bfloat16 products summed in float32 (`Arithmetic.bfloat16`): the input rounded to pairs of
    /// channels, im2col over the pairs where the window is larger than 1x1, then the
    /// reduced-precision GEMM.
    public static let bfloat16GEMM = ConvolutionAlgorithm("bf16 gemm", arithmetic: .bfloat16)
}

/// The bfloat16 format of `ReducedConvolution`: x86-64's AVX512_BF16 set (`ReducedKernels.avx512`)
/// and arm64's BFMMLA and BFDOT sets (`.bfmmla`, `.bfdot`), each equal to its architecture's
/// portable set (the two architectures' sums differ).
package enum BFloat16Format: ReducedFormat {
    package static var algorithm: ConvolutionAlgorithm { .bfloat16GEMM }
}

/// `.bfloat16GEMM`: a convolution in bfloat16 (`ReducedConvolution`).
package typealias BFloat16Convolution = ReducedConvolution<BFloat16Format>
