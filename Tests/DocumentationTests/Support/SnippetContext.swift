import Darknet
import DarknetImage
import DarknetModels
import DarknetVideo
import Foundation

// What the documentation's snippets take from the code around them: the files a reader has and
// the values an earlier snippet made. The snippets are compiled, never run, so these are never
// read either.

let cfgURL = URL(fileURLWithPath: "yolov3-tiny.cfg")
let weightsURL = URL(fileURLWithPath: "yolov3-tiny.weights")
let namesURL = URL(fileURLWithPath: "coco.names")
let photoURL = URL(fileURLWithPath: "dog.jpg")
let darknet19CfgURL = URL(fileURLWithPath: "darknet19.cfg")
let darknet19WeightsURL = URL(fileURLWithPath: "darknet19.weights")
let imagenetNamesURL = URL(fileURLWithPath: "imagenet.shortnames.list")
let calibrationFolderURL = URL(fileURLWithPath: "calibration", isDirectory: true)
let sidecarURL = URL(fileURLWithPath: "yolov3-tiny.int8.json")
let objDataURL = URL(fileURLWithPath: "obj.data")
let imagenetDataURL = URL(fileURLWithPath: "imagenet1k.data")
let cachesURL = URL(fileURLWithPath: "Caches", isDirectory: true)
let bundledCfg = URL(fileURLWithPath: "bundled/yolov3-tiny.cfg")
let bundledWeights = URL(fileURLWithPath: "bundled/yolov3-tiny.weights")
let bundledNames = URL(fileURLWithPath: "bundled/coco.names")
let weightsSHA256 = "dccea06f59b781ec1234ddf8d1e94b9519a97f4245748a7d4db75d5b7080a42c"

var detector: Detector { unavailable() }
var classifier: Classifier { unavailable() }
var image: PlanarImage { unavailable() }
var detections: [Detection] { unavailable() }
var input: [Float] { unavailable() }
var letterboxedInput: [Float] { unavailable() }
var store: ModelStore { unavailable() }
var reader: VideoReader { unavailable() }
var pipeline: DetectionPipeline { unavailable() }
var frame: VideoFrame { unavailable() }
var annotatedImage: PlanarImage { unavailable() }

/// Another runtime computing a network's layers (Core ML, ONNX Runtime, ...).
struct OtherRuntime {
    func run(_ input: [Float]) throws -> [[Float]] { unavailable() }
}
let otherRuntime = OtherRuntime()

/// The reader's own drawing.
func draw(_ detections: [Detection], on frame: VideoFrame) {}

private func unavailable() -> Never { fatalError("documentation snippets are compiled, not run") }
