/// The number format a layer computes in: what its multiplications read and what they sum into.
///
/// A plan gives each convolution one (`LayerPlan.arithmetic`), chosen by the ordered rules of
/// `ArithmeticChoice` from the network, the options (`PlanOptions.precision`) and the CPU;
/// the convolution algorithm is then chosen among those that compute in it (`ConvolutionChoice`).
/// Layers other than convolutions compute in float32.
///
/// ```swift
/// let plan = try NetworkPlan(spec: spec, options: PlanOptions(precision: .bfloat16))
/// print(plan.layers[13].arithmetic)   // bfloat16 (float32 on a CPU without bf16 kernels)
/// ```
public enum Arithmetic: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// float32 operands and sums: Darknet's own results.
    case float32
    /// bfloat16 operands (float32's 8 exponent bits, 7 fraction bits), float32 sums (x86-64
    /// with AVX512_BF16, arm64 with FEAT_BF16; planned as float32 elsewhere).
    case bfloat16
    /// IEEE half-precision operands (5 exponent bits, 10 fraction bits), float32 sums (arm64
    /// with FEAT_FHM; with FEAT_FP16 alone, half sums of 8 products added into float32; planned
    /// as float32 elsewhere).
    case float16
    /// 8-bit integer codes of calibrated ranges, 32-bit integer sums.
    case int8
    /// 16-bit integer codes of calibrated ranges, 32-bit integer sums.
    case int16

    public var description: String { rawValue }

    /// Whether operands are integer codes of a calibrated range.
    public var isInteger: Bool { self == .int8 || self == .int16 }
}
