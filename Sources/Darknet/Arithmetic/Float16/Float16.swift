extension ConvolutionAlgorithm {
    /// IEEE half-precision products summed in float32 (`Arithmetic.float16`): the input rounded
    /// to pairs of channels, im2col over the pairs where the window is larger than 1x1, then the
    /// reduced-precision GEMM.
    public static let float16GEMM = ConvolutionAlgorithm("fp16 gemm", arithmetic: .float16)
}

/// The float16 format of `ReducedConvolution`: arm64's FMLAL set (`ReducedKernels.fhm`), whose
/// arithmetic the portable set (`.portableFloat16`) emulates bit for bit, and, on CPUs without
/// FEAT_FHM, the FMLA set in half sums (`.fmla`, emulated by `.portableHalfSums`).
package enum Float16Format: ReducedFormat {
    package static var algorithm: ConvolutionAlgorithm { .float16GEMM }
}

/// `.float16GEMM`: a convolution in float16 (`ReducedConvolution`).
package typealias Float16Convolution = ReducedConvolution<Float16Format>
