import CommandLineKit
import Darknet
import Foundation

/// Renders a plan as Darknet's layer summary: index, type, filters, size/stride,
/// input -> output, BFLOPs (with `algorithms`, each convolution's algorithm after two spaces,
/// then ` | ` its arithmetic and why, and for bfloat16 or float16 the kernel set); then the total.
enum LayerTable {
    static func render(_ plan: NetworkPlan, algorithms: Bool = false) -> String {
        var lines = ["layer     filters    size              input                output"]
        for layer in plan.layers {
            let kernels = layer.reducedKernels.map { " (\($0) kernels)" } ?? ""
            let algorithm = algorithms
                ? layer.algorithm.map { "  \($0) | \(layer.arithmetic): \(layer.arithmeticReason ?? "")\(kernels)" } ?? "" : ""
            lines.append(String(format: "%5d ", layer.index) + layer.summary + algorithm)
        }
        lines.append(String(format: "Total BFLOPs %.3f", Double(plan.flops) / 1e9))
        return lines.joined(separator: "\n")
    }
}
