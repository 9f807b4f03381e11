import Darknet
import DarknetImage

// The Swift snippets of the article Darknet.md, compiled (never run) with only its imports.

func darknet1() throws {
    // begin Sources/Darknet/Darknet.docc/Darknet.md 1
    let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL)
    for detection in try detector.detect(try PlanarImage(contentsOf: photoURL), options: DetectionOptions()) {
        print(detection)    // dog: 56% (x 129 y 186 w 240 h 331)
    }
    // end Sources/Darknet/Darknet.docc/Darknet.md 1
}
