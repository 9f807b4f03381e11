import CommandLineKit
import Darknet
import DarknetEvaluation
import Foundation

/// `swift-darknet map`: AlexeyAB's `darknet detector map` (mean average precision over the
/// `.data` file's `valid=` images), its lines or a JSON report.
struct MapCommand: Command {
    static let name = "map"
    static let abstract = "score a detector on labelled images: AP per class and mAP, as darknet detector map"
    static let description = """
        default output: AlexeyAB's lines (AP, TP and FP per class; precision, recall, F1, TP, FP, FN and
        average IoU at --thresh; the mAP over every class of the network), then the mAP over the classes
        with labelled objects and their count, then COCO's mAP@[.50:.95] (which leaves out classes without
        objects too)
        \(EvaluationFlags.letterboxHelp)
        """
    static let optionGroups = EvaluationFlags.optionGroups(OptionGroup("scoring", [
        .value("iou-thresh", "0-1", default: "0.5", "a detection matches an object of its class above this IoU"),
        .value("points", "0|11|101", default: "0", "0: area under the precision envelope, 11: VOC 2007, 101: COCO's recall points"),
        .value("thresh", "0-1", default: "0.25", "the confidence the TP / FP / FN line is counted at"),
        .flag("json", "the report as one JSON object instead"),
    ]))

    let evaluation: EvaluationFlags
    let options: MeanAveragePrecisionOptions
    let json: Bool

    init(arguments: inout Arguments) throws {
        evaluation = try EvaluationFlags(arguments: &arguments)
        options = MeanAveragePrecisionOptions(
            iouThreshold: try arguments.float("iou-thresh", range: 0...0.999_999),
            points: try arguments.int("points", range: 0...100_000),
            confidenceThreshold: try arguments.float("thresh", range: 0...1))
        do { try options.validate() } catch { throw CLIError("--points must be 0 or at least 2 (11, 101)") }
        json = arguments.flag("json")
        guard arguments.positionals.isEmpty else {
            throw CLIError("map takes its images from the .data file's valid= list, not '\(arguments.positionals[0])'")
        }
    }

    func run() throws -> Int32 {
        let run = try evaluation.evaluation()
        let progress = ImageCountLine(total: run.set.images.count)
        let report = try run.meanAveragePrecision(options: options, progress: progress.update)
        for warning in report.warnings.prefix(20) { warn(warning.description) }
        if report.warnings.count > 20 { warn("\(report.warnings.count - 20) more label lines like these") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.darknetText, terminator: "")
        }
        return 0
    }
}
