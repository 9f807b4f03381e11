extension YoloDecoder {
    /// AlexeyAB's `new_coords` box size: `t * t * 4 * anchor / network` (float, in C's order).
    static func squaredSize(_ t: Float, anchor: Float, network: Int) -> Float {
        t * t * 4 * anchor / Float(network)
    }
}

extension DetectionDecoder {
    /// The suppression the network asks for: AlexeyAB reads `nms_kind` from the network's last
    /// layer (the last `[yolo]` here); `.default` without one.
    public static func nmsKind(of plan: NetworkPlan) -> NMSKind {
        for layer in plan.layers.reversed() {
            if case .yolo(let yolo) = layer.spec.kind { return yolo.nms }
        }
        return .default
    }
}
