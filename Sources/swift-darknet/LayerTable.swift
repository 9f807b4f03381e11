import CommandLineKit
import Darknet
import Foundation

/// Renders a plan as Darknet's layer summary: index, type, filters, size/stride,
/// input -> output, BFLOPs; then the total.
enum LayerTable {
    static func render(_ plan: NetworkPlan) -> String {
        var lines = ["layer     filters    size              input                output"]
        for layer in plan.layers {
            let index = String(format: "%5d ", layer.index)
            let shapes = "\(shape(layer.inputShape))   ->  \(shape(layer.outputShape))"
            switch layer.spec.kind {
            case .convolutional(let conv):
                lines.append(index + String(format: "conv  %5d %2d x%2d /%2d  ", conv.filters, conv.size, conv.size, conv.strideX)
                             + shapes + String(format: "  %5.3f BFLOPs", Double(layer.flops) / 1e9))
            case .maxpool(let pool):
                lines.append(index + String(format: "max         %2d x%2d /%2d  ", pool.size, pool.size, pool.strideX) + shapes)
            case .route(let route):
                lines.append(index + "route  " + route.layers.map(String.init).joined(separator: " "))
            case .upsample(let up):
                lines.append(index + String(format: "upsample          %2dx  ", up.stride) + shapes)
            case .shortcut(let sc):
                lines.append(index + "res  " + sc.from.map(String.init).joined(separator: ",") + String(repeating: " ", count: 18) + shapes)
            case .yolo:
                lines.append(index + "yolo")
            case .scaleChannels(let scale):
                lines.append(index + "scale_channels \(scale.from)" + String(repeating: " ", count: 8) + shapes)
            case .sam(let sam):
                lines.append(index + "sam  \(sam.from)" + String(repeating: " ", count: 18) + shapes)
            case .region:
                lines.append(index + "detection")
            case .reorg(let reorg):
                lines.append(index + (reorg.extra > 0 ? String(format: "reorg              %4d   ->  %4d", layer.inputShape.count, layer.outputShape.count)
                                                       : String(format: "reorg             /%2d  ", reorg.stride) + shapes))
            case .avgpool:
                lines.append(index + "avg                     " + shapes)
            case .softmax:
                lines.append(index + String(format: "softmax                                        %5d", layer.outputShape.count))
            case .connected:
                lines.append(index + String(format: "connected                            %4d  ->  %4d", layer.inputShape.count, layer.outputShape.count))
            case .dropout(let dropout):
                lines.append(index + String(format: "dropout       p = %.2f               %4d  ->  %4d", dropout.probability,
                                            layer.inputShape.count, layer.outputShape.count))
            case .batchnorm:
                lines.append(index + "batchnorm               " + shapes)
            case .cost:
                lines.append(index + "cost                                           \(layer.inputShape.count)")
            case .crop:
                lines.append(index + "crop                    " + shapes)
            }
        }
        lines.append(String(format: "Total BFLOPs %.3f", Double(plan.flops) / 1e9))
        return lines.joined(separator: "\n")
    }

    private static func shape(_ s: TensorShape) -> String {
        String(format: "%4d x%4d x%4d", s.width, s.height, s.channels)
    }
}
