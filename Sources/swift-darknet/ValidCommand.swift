import CommandLineKit
import Darknet
import DarknetEvaluation
import Foundation

/// `swift-darknet valid`: AlexeyAB's `darknet detector valid`, the detections of the `.data`
/// file's `valid=` images written as VOC's per-class files or COCO's results JSON (`eval=`).
struct ValidCommand: Command {
    static let name = "valid"
    static let abstract = "write detections on the valid= images as VOC or COCO result files, as darknet detector valid"
    static let description = """
        writes, with eval=voc in the .data (the default), DIR/NAMEclass.txt for each class
        (NAME comp4_det_test_; "image confidence xmin ymin xmax ymax" lines, 1-based pixels);
        with eval=coco, DIR/NAME.json (NAME coco_results; COCO's result format and category ids)
        \(EvaluationFlags.letterboxHelp)
        """
    static let optionGroups = EvaluationFlags.optionGroups(OptionGroup("results", [
        .value("results", "DIR", "where the files go (default: the .data file's results=, else results)"),
        .value("out", "NAME", "the file prefix (Darknet's -out)"),
    ]))

    let evaluation: EvaluationFlags
    let results: String?
    let out: String?

    init(arguments: inout Arguments) throws {
        evaluation = try EvaluationFlags(arguments: &arguments)
        results = arguments.string("results")
        out = arguments.string("out")
        if let out, out.contains("/") { throw CLIError("--out names a file prefix, not a path ('\(out)'); use --results DIR") }
        guard arguments.positionals.isEmpty else {
            throw CLIError("valid takes its images from the .data file's valid= list, not '\(arguments.positionals[0])'")
        }
    }

    func run() throws -> Int32 {
        let run = try evaluation.evaluation()
        let folder = results ?? run.set.resultsFolder
        let progress = ImageCountLine(total: run.set.images.count)
        if run.set.eval == "coco" {
            var writer = try COCOResultsWriter(folder: folder, name: out ?? "coco_results", classes: run.classes)
            try run.validate(into: &writer, progress: progress.update)
            FileHandle.standardError.write(Data("swift-darknet: wrote \(writer.path)\n".utf8))
        } else {
            let names = (0..<run.classes).map { $0 < run.detector.labels.count ? run.detector.labels[$0] : String($0) }
            var writer = try VOCResultsWriter(folder: folder, prefix: out ?? "comp4_det_test_", names: names)
            try run.validate(into: &writer, progress: progress.update)
            FileHandle.standardError.write(Data("swift-darknet: wrote \(writer.paths.count) files in \(folder)\n".utf8))
        }
        return 0
    }
}
