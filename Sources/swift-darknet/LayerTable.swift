import CommandLineKit
import Darknet
import Foundation

/// Renders a plan as Darknet's layer summary: index, type, filters, size/stride,
/// input -> output, BFLOPs; then the total.
enum LayerTable {
    static func render(_ plan: NetworkPlan) -> String {
        var lines = ["layer     filters    size              input                output"]
        for layer in plan.layers {
            lines.append(String(format: "%5d ", layer.index) + layer.summary)
        }
        lines.append(String(format: "Total BFLOPs %.3f", Double(plan.flops) / 1e9))
        return lines.joined(separator: "\n")
    }
}
