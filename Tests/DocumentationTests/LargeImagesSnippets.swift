import Darknet

// The Swift snippets of the article LargeImages.md, compiled (never run) with only its imports.

func largeImages1() throws {
    // begin Sources/Darknet/Darknet.docc/LargeImages.md 1
    let options = DetectionOptions(threshold: 0.3, tiling: TilingOptions())   // or tileSize: .pixels(width:height:), overlap: ...
    let found = try detector.detect(image, options: options)                 // also PixelBuffer, async, DetectionPipeline
    // end Sources/Darknet/Darknet.docc/LargeImages.md 1
    _ = found
}
