import CommandLineKit
import Darknet

/// `--thresh`, `--hier`, `--nms`, `--stretch` and `--yolov1-boxes`: Darknet's thresholds, how an
/// image is fitted to the network and which command's YOLOv1 boxes (`DetectionOptions`), declared
/// and read in one place for `detect`, `video` and `serve`.
struct DetectionFlags: Sendable {
    /// `--thresh`'s default and help (`serve` gives it DeepStack's meaning).
    var threshold = (default: "0.5", help: "smallest confidence reported")
    /// Whether the command offers `--stretch` (`video` always letterboxes).
    var offersStretch = true

    /// The declarations, for the command's "detection" group.
    var options: [Option] {
        [
            .value("thresh", "0-1", default: threshold.default, threshold.help),
            .value("hier", "0-1", default: "0.5", "YOLOv2's hierarchy threshold (YOLO9000)"),
            .value("nms", "0-1", default: "0.45", "overlap above which NMS keeps only the better box"),
        ] + (offersStretch ? [.flag("stretch", "resize without keeping the aspect ratio (Darknet letterboxes)")] : []) + [
            .value("yolov1-boxes", "detect|yolo-test", default: "detect", """
                YOLOv1's [detection] boxes as darknet detect prints them (mostly on the image's border)
                or as darknet yolo test does (where the network puts them)
                """),
        ]
    }

    /// The options the flags give.
    func read(_ arguments: inout Arguments) throws -> DetectionOptions {
        let boxes: DetectionLayerBoxes
        switch arguments.stringOrDefault("yolov1-boxes") {
        case "detect": boxes = .darknetDetect
        case "yolo-test": boxes = .yoloTest
        case let other: throw CLIError("--yolov1-boxes must be detect or yolo-test, got '\(other ?? "")'")
        }
        return DetectionOptions(threshold: try arguments.float("thresh", range: 0...1),
                                hierThreshold: try arguments.float("hier", range: 0...1),
                                nmsThreshold: try arguments.float("nms", range: 0...1),
                                letterbox: offersStretch ? !arguments.flag("stretch") : true, detectionLayerBoxes: boxes)
    }
}
