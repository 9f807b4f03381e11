/// How a convolution is computed: the name of one algorithm of the planner's list
/// (`ConvolutionChoice`). Each algorithm's type declares its name beside itself
/// (`ConvolutionAlgorithm.winogradF23`, ...).
public struct ConvolutionAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// The name tables and benchmarks print (`im2col+sgemm`, `winograd F(2x2,3x3)`, ...).
    public let name: String
    /// Whether it is one of the Winograd paths (weights transformed at load).
    public let isWinograd: Bool
    /// The number format it computes in.
    public let arithmetic: Arithmetic
    /// Whether it computes in integers (`PlanOptions.precision` `.int8`), 16-bit ones included.
    public var isInt8: Bool { arithmetic.isInteger }

    package init(_ name: String, winograd: Bool = false, arithmetic: Arithmetic = .float32) {
        self.name = name
        self.isWinograd = winograd
        self.arithmetic = arithmetic
    }

    public var description: String { name }
}

/// Which fast paths the planner may choose.
public enum ConvolutionStrategy: Sendable, Equatable, Hashable {
    /// The fastest path each layer supports.
    case fastest
    /// im2col + GEMM everywhere (1x1 stride-1 layers still skip im2col): the reference path.
    case im2colOnly
}
