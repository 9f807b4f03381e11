import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `swift-darknet classify`: the top classes of a Darknet classifier for one or more images.
struct ClassifyCommand: Command {
    static let name = "classify"
    static let abstract = "classify images with a Darknet classifier (top-k labels)"
    static let operands = "IMAGE_OR_DIR..."
    static let description = """
        default output: "NN.NN%: label" lines per image, as `darknet classifier predict` prints them
        \(ImageSourceFlags.operandHelp)
        an image that fails: reported on stderr, the others still run, exit status 1 at the end
        """
    static let optionGroups = [
        ModelOptions.options([LabelFiles.option]),
        OptionGroup("classification", ClassifierFlags.classificationOptions + [
            .flag("json", #"one line per image: {"image", "width", "height", "predictions": [{"class", "label", "prob"}]}"#),
        ]),
        OptionGroup("images", ImageSourceFlags.options),
        PlanFlags.options,
    ]

    let classifierFlags: ClassifierFlags
    let json: Bool
    let sources: ImageSourceFlags
    let images: [String]

    init(arguments: inout Arguments) throws {
        classifierFlags = try ClassifierFlags(arguments: &arguments, darknetDefault: .classify)
        json = arguments.flag("json")
        sources = ImageSourceFlags(arguments: &arguments)
        images = arguments.positionals
        try sources.requireImages(images)
    }

    func run() throws -> Int32 {
        let prompts = sources.prompts(images)
        let paths = prompts ? [] : try sources.imagePaths(images)
        let options = try classifierFlags.options()
        let classifier = try classifierFlags.loadClassifier(try classifierFlags.model.resolve())
        var failures = 0
        for path in prompts ? AnySequence(ImagePathPrompt(toStandardError: json)) : AnySequence(paths) {
            do {
                let image = try PlanarImage(contentsOf: URL(fileURLWithPath: path), channels: classifier.network.inputShape.channels == 1 ? 1 : 3)
                let predictions = try classifier.classify(image, options: options)
                if json {
                    print(ClassificationJSON.line(image: path, width: image.width, height: image.height,
                                                  predictions: predictions))
                } else {
                    for p in predictions { print(String(format: "%5.2f%%: %@", p.probability * 100, p.label)) }
                }
            } catch {
                printError(inputFailureLine(path, error))
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }
}

/// The `classify --json` line format: one object per image, most probable class first.
enum ClassificationJSON {
    static func line(image: String, width: Int, height: Int, predictions: [Classification]) -> String {
        #"{"image": \#(jsonStringLiteral(image)), "width": \#(width), "height": \#(height), "predictions": \#(array(predictions))}"#
    }

    /// `[{"class", "label", "prob"}, ...]`, most probable first.
    static func array(_ predictions: [Classification]) -> String {
        let items = predictions.map { p in
            String(format: #"{"class": %d, "label": %@, "prob": %.6f}"#, p.classIndex, jsonStringLiteral(p.label), p.probability)
        }
        return "[" + items.joined(separator: ", ") + "]"
    }
}
