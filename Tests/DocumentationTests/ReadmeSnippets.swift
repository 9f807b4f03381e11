import Darknet
import DarknetVideo

// The README's Swift snippets that no other test runs, compiled with only the README's imports.

func readme6() async throws {
    // begin README.md 6
    let pipeline = DetectionPipeline(detector: detector, policy: .every)
    for try await result in pipeline.process(try VideoReader(source: "pan.mp4")) {   // decoded on a thread of its own
        print(result.index, result.presentationTime, result.detections.map(\.label))
    }
    // end README.md 6
}

func readme7() async throws {
    // begin README.md 7
    let options = DetectionOptions(threshold: 0.3, tiling: TilingOptions())   // or .pixels(width:height:), overlap, ...
    let found = try await detector.detect(image, options: options)           // also PixelBuffer, DetectionPipeline
    // end README.md 7
    _ = found
}

