import CommandLineKit
import Darknet
import DarknetEvaluation
import Foundation

/// `swift-darknet recall`: AlexeyAB's `darknet detector recall`, a running recall line per image.
struct RecallCommand: Command {
    static let name = "recall"
    static let abstract = "print the running proposal recall over the valid= images, as darknet detector recall"
    static let description = """
        prints, after each image, "INDEX FOUND OBJECTS\\tRPs/Img: N\\tIOU: N%\\tRecall:N%": objects
        whose best proposal (objectness > 0.001 after objectness NMS at 0.4, any class)
        overlaps them by IoU > 0.5; images are stretched to the network size
        """
    static let optionGroups = EvaluationFlags.optionGroups(OptionGroup("recall", []))

    let evaluation: EvaluationFlags

    init(arguments: inout Arguments) throws {
        evaluation = try EvaluationFlags(arguments: &arguments)
        guard arguments.positionals.isEmpty else {
            throw CLIError("recall takes its images from the .data file's valid= list, not '\(arguments.positionals[0])'")
        }
    }

    func run() throws -> Int32 {
        try evaluation.evaluation().recall { line in print(line.darknetText) }
        return 0
    }
}
