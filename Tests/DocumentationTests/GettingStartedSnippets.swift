import Darknet
import DarknetImage
import Foundation

// The Swift snippets of the article GettingStarted.md, compiled (never run) with only its imports.

func gettingStarted2() throws {
    // begin Sources/Darknet/Darknet.docc/GettingStarted.md 2
    let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL)
    let image = try PlanarImage(contentsOf: photoURL)
    for d in try detector.detect(image, options: DetectionOptions(threshold: 0.5)) {
        print(d.label, d.confidence, d.rect)   // rect in the photo's pixels, as Darknet draws it
    }
    // end Sources/Darknet/Darknet.docc/GettingStarted.md 2
}

func gettingStarted3() throws {
    // begin Sources/Darknet/Darknet.docc/GettingStarted.md 3
    let json = try JSONEncoder().encode(detections)
    // [{"class":16,"label":"dog","prob":0.5639168,"x":129,"y":186,"w":240,"h":331,"objectness":...,"box":{...}}]
    // end Sources/Darknet/Darknet.docc/GettingStarted.md 3
    _ = json
}

func gettingStarted4() throws {
    // begin Sources/Darknet/Darknet.docc/GettingStarted.md 4
    let classifier = try Classifier(cfg: darknet19CfgURL, weights: darknet19WeightsURL, names: imagenetNamesURL)
    for c in try classifier.classify(image, options: ClassificationOptions(top: 5)) {
        print(c)                               // Labrador retriever: 41.23%
    }
    // end Sources/Darknet/Darknet.docc/GettingStarted.md 4
}

func gettingStarted5() async throws {
    // begin Sources/Darknet/Darknet.docc/GettingStarted.md 5
    let found = try await detector.detect(image, options: DetectionOptions())
    // end Sources/Darknet/Darknet.docc/GettingStarted.md 5
    _ = found
}

func gettingStarted6() throws {
    // begin Sources/Darknet/Darknet.docc/GettingStarted.md 6
    let network = try Network(cfg: cfgURL, weights: weightsURL)      // parse, plan, load
    let session = InferenceSession(network: network, retaining: .all, threads: 2)
    try session.forward(input)                                       // planar CHW float32
    let head = try session.output(ofLayer: 16)                       // Tensor(shape:values:)
    // end Sources/Darknet/Darknet.docc/GettingStarted.md 6
    _ = head
}

func gettingStarted7() throws {
    // begin Sources/Darknet/Darknet.docc/GettingStarted.md 7
    let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL)
    // YOLOv3-tiny: [255 x 13 x 13, 255 x 26 x 26], planar CHW float32
    let maps: [[Float]] = try otherRuntime.run(letterboxedInput)
    let found = try detector.detect(headInputs: maps, imageWidth: 768, imageHeight: 576)
    // end Sources/Darknet/Darknet.docc/GettingStarted.md 7
    _ = found
}
