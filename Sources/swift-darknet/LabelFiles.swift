import CommandLineKit
import Darknet
import Foundation

/// Where a command's labels come from: `--names FILE` (one label per line) or `--data FILE`
/// (a Darknet `.data` file: its `names`, and its `classes` checked against the network).
struct LabelFiles {
    /// `--data`, beside `--names` in a command's model options.
    static let option = Option.value("data", "FILE", "a Darknet .data file (coco.data, obj.data): its names=, its classes= checked")

    let data: URL?
    /// Where the labels come from when neither is given in Darknet's form of the command line
    /// (`detect yolov3.cfg yolov3.weights dog.jpg`): the `.data` file Darknet's command reads.
    let darknetDefault: DarknetForms.DefaultData?

    /// Reads `--data`; with `--names` (`names`, read by `ModelOptions`) too, a usage mistake.
    /// `darknetDefault`: the command's `DarknetForms.DefaultData`, taken when the cfg was given
    /// by position and neither `--names` nor `--data` was.
    init(arguments: inout Arguments, names: String?, darknetDefault: DarknetForms.DefaultData? = nil) throws {
        data = arguments.string("data").map { URL(fileURLWithPath: $0) }
        if names != nil, data != nil { throw CLIError("give --names or --data, not both") }
        let darknetForm = arguments.optionsByPosition.contains("cfg") && names == nil && data == nil
        self.darknetDefault = darknetForm ? darknetDefault : nil
    }

    /// The labels and the file they came from: the `.data` file's names (its `classes` checked
    /// against `classes`, the detection layers' classes or a classifier's outputs: `what`), or
    /// the names file `names` (the local copy of `--names`).
    func load(names: URL?, classes: Int, cfg: URL, what: String) throws -> (labels: [String], file: String) {
        if let data {
            let file = try DataFile(contentsOf: data)
            try file.check(classes: classes, cfg: cfg.path, what: what)
            return (try file.labels(), file.names?.path ?? "<labels>")
        }
        if let darknetDefault { return darknetDefault.labels(classes: classes, cfg: cfg, what: what) }
        return (try names.map { try ClassLabels.read($0) } ?? [], names?.path ?? "<labels>")
    }
}

extension LabelFiles {
    /// A detector of `network` with these labels; a network without a detection head is refused
    /// before any label file is read.
    func detector(_ network: Network, names: URL?, cfg: URL, threads: Int,
                  sessionPolicy: SessionPolicy = SessionPolicy()) throws -> Detector {
        let classes = try DetectionDecoder.checkedClassCount(of: network.plan)
        let (labels, file) = try load(names: names, classes: classes, cfg: cfg, what: "classes")
        return try Detector(network: network, labels: labels, labelsFile: file, threads: threads, sessionPolicy: sessionPolicy)
    }
}

/// Prints the cfg's diagnostics as warnings (unless `--strict` made them errors, checked here).
func report(_ spec: NetworkSpec, options: PlanOptions) throws {
    try spec.checkKeys(options)
    for diagnostic in spec.diagnostics { warn(diagnostic.description) }
}

/// An error's message for stderr: the cfg's diagnostics were already printed as warnings, so
/// they are not repeated as notes.
func cliMessage(_ error: any Error) -> String {
    switch error {
    case var error as PlanError:
        error.notes = []
        return error.description
    case var error as WeightsError:
        error.notes = []
        return error.description
    default:
        return String(describing: error)
    }
}
