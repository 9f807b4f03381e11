import CommandLineKit
import Darknet
import DarknetEvaluation
import Foundation

/// `swift-darknet classify-valid`: Darknet's `classifier valid`, a classifier's top-1 and top-k
/// accuracy on the `.data` file's `valid=` images.
struct ClassifyValidCommand: Command {
    static let name = "classify-valid"
    static let abstract = "score a classifier on the valid= images (top-1 / top-k), as darknet classifier valid"
    static let description = """
        --data names valid= (one image a line), labels= (one class a line: an image's class is
        the first label its path contains), classes= and top=. Each image's largest centred
        square is resized to the network's size.
        default output, as Debian's Darknet prints it, for image N:
          PATH, CLASS, SCORE0, SCORE1,
          N: top 1: FRACTION, top K: FRACTION
        """
    static let optionGroups = [
        ModelOptions.options([LabelFiles.option]),
        OptionGroup("classification", ClassifierFlags.classificationOptions + [
            .flag("json", #"only a closing line: {"images", "top", "top1_hits", "topk_hits", "unlabelled", "top1", "topk"}"#),
        ]),
        PlanFlags.options,
    ]

    let classifierFlags: ClassifierFlags
    /// `--data`.
    let data: URL
    let json: Bool

    init(arguments: inout Arguments) throws {
        classifierFlags = try ClassifierFlags(arguments: &arguments)
        json = arguments.flag("json")
        guard let data = classifierFlags.labelFiles.data else {
            throw CLIError("missing --data (the .data file naming the images to score and their labels)")
        }
        self.data = data
        guard arguments.positionals.isEmpty else {
            throw CLIError("classify-valid takes its images from the .data file's valid= list, not '\(arguments.positionals[0])'")
        }
    }

    func run() throws -> Int32 {
        let files = try classifierFlags.model.resolve()
        let validation = try ClassifierValidation(data: data)
        let classifier = try classifierFlags.loadClassifier(files)
        let tally = try validation.run(classifier, k: classifierFlags.top) { image, scores, tally in
            guard !json else { return }
            let first = scores.map { String(format: "%f", Double($0)) }.joined(separator: ", ")
            print("\(image.listed), \(image.truth ?? -1), \(first), ")
            print(tally.darknetLine)
        }
        if json {
            print(try jsonLine(tally))
        } else if tally.unlabelled > 0 {
            warn("\(tally.unlabelled) of \(tally.images) image paths contain no label of the first \(validation.classes): counted as misses")
        }
        return 0
    }

    private func jsonLine(_ tally: ClassifierAccuracy) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(tally), as: UTF8.self)
    }
}
