import Darknet

extension DetectionOptions {
    /// `darknet detector map`'s detection settings: probabilities above 0.005, hierarchy
    /// threshold 0, NMS at 0.45 (the cfg's `nms_kind`), letterboxed when the cfg says
    /// `letter_box=1`, stretched otherwise.
    public static func meanAveragePrecision(letterbox: Bool) -> DetectionOptions {
        DetectionOptions(threshold: 0.005, hierThreshold: 0, nmsThreshold: 0.45, letterbox: letterbox)
    }
}
