import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `swift-darknet classify`: the top classes of a Darknet classifier for one or more images.
struct ClassifyCommand: Command {
    static let name = "classify"
    static let abstract = "classify images with a Darknet classifier (top-k labels)"
    static let usage = """
        --cfg FILE|URL --weights FILE|URL [--names FILE|URL] [--cache DIR] [--update]
                     [--top 5] [--json] [--threads 1] IMAGE...
          default output: "NN.NN%: label" lines per image, as `darknet classifier predict` prints them
          --names    one label per line (e.g. imagenet.shortnames.list); without it, class indices
          --json     one line per image: {"image", "width", "height", "predictions": [{"class", "label", "prob"}]}
        """ + "\n" + ModelOptions.usage
    static let flagNames: Set<String> = Set(["json"]).union(ModelOptions.flagNames)

    let model: ModelOptions
    let top: Int
    let json: Bool
    let threads: Int
    let images: [String]

    init(arguments: inout Arguments) throws {
        model = try ModelOptions(arguments: &arguments)
        top = try arguments.int("top", default: 5, range: 1...100_000)
        json = arguments.flag("json")
        threads = try arguments.int("threads", default: 1, range: 1...256)
        images = arguments.positionals
        guard !images.isEmpty else { throw CLIError("no image given") }
    }

    func run() throws -> Int32 {
        let (cfg, weights, names) = try model.resolve()
        let spec = try loadSpec(cfg)
        for diagnostic in spec.diagnostics { warn(diagnostic.description) }
        let network = try Network(spec: spec, weightsFile: weights)
        let labels = try names.map { try Detector.readLabels($0) } ?? []
        let classifier = try Classifier(network: network, labels: labels, labelsFile: names?.path ?? "<labels>",
                                        threads: threads)
        var failures = 0
        for path in images {
            do {
                let image = try Image(contentsOf: URL(fileURLWithPath: path))
                let predictions = try classifier.classify(image, top: top)
                if json {
                    print(ClassificationJSON.line(image: path, width: image.width, height: image.height,
                                                  predictions: predictions))
                } else {
                    for p in predictions { print(String(format: "%5.2f%%: %@", p.probability * 100, p.label)) }
                }
            } catch {
                FileHandle.standardError.write(Data("swift-darknet: \(path): \(error)\n".utf8))
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }
}

/// The `classify --json` line format: one object per image, most probable class first.
enum ClassificationJSON {
    static func line(image: String, width: Int, height: Int, predictions: [Classification]) -> String {
        let items = predictions.map { p in
            String(format: #"{"class": %d, "label": %@, "prob": %.6f}"#, p.classIndex, jsonStringLiteral(p.label), p.probability)
        }
        return #"{"image": \#(jsonStringLiteral(image)), "width": \#(width), "height": \#(height), "predictions": [\#(items.joined(separator: ", "))]}"#
    }
}
