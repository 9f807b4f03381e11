import DarknetImage
import Darknet
import Foundation

// The Swift snippets of the article DarknetImage.md, compiled (never run) with only its imports.

func darknetImage1() throws {
    // begin Sources/DarknetImage/DarknetImage.docc/DarknetImage.md 1
    let image = try PlanarImage(contentsOf: photoURL)                 // or PlanarImage(data:)
    let found = try detector.detect(image, options: DetectionOptions())
    let boxes = found.map { BoxAnnotation(label: $0.label, classIndex: $0.classIndex,
                                          left: $0.rect.left, top: $0.rect.top, right: $0.rect.right, bottom: $0.rect.bottom) }
    try image.annotated(with: boxes).write(to: URL(fileURLWithPath: "predictions.png"))   // .png or .jpg
    // end Sources/DarknetImage/DarknetImage.docc/DarknetImage.md 1
}
