import CommandLineKit
import Darknet
import DarknetEvaluation
import Foundation

/// What `map`, `valid` and `recall` share: a `.data` file (its `valid=` list and `names=`),
/// the model, how it is planned and run, and the detector evaluation made of them.
struct EvaluationFlags {
    /// The options `map`, `valid` and `recall` share, around `own` (the command's).
    static func optionGroups(_ own: OptionGroup) -> [OptionGroup] {
        [
            OptionGroup("scoring data", [
                .value("data", "FILE", required: true, """
                    the model's .data file: valid= lists the images (one path a line), each image's
                    labels are the YOLO .txt beside it (or under labels/ for images/ folders), names=
                    the class names, classes= checked against the cfg
                    """),
            ]),
            ModelOptions.options(),
            OptionGroup("running", [
                ThreadsFlag.option(),
            ]),
            own,
            PlanFlags.options,
            PrecisionFlags.options,
        ]
    }

    /// The help's words on how the images are prepared.
    static let letterboxHelp = "images are letterboxed when the cfg's [net] says letter_box=1, else stretched (AlexeyAB's rule)"

    let detectorFlags: DetectorFlags
    let data: URL
    let threads: Int

    init(arguments: inout Arguments) throws {
        detectorFlags = try DetectorFlags(arguments: &arguments)
        guard let data = detectorFlags.labelFiles.data else {
            throw CLIError(detectorFlags.model.names == nil ? "missing --data (the .data file naming the images to score)"
                                                            : "give --data instead of --names: it names the images to score and their classes")
        }
        self.data = data
        threads = try ThreadsFlag.read(&arguments)
    }

    /// The validation set, then the detector (a missing list or image fails before the weights load).
    func evaluation() throws -> DetectorEvaluation {
        let set = try ValidationSet(data: data)
        let files = try detectorFlags.model.resolve()
        let letterbox = try CfgLetterbox.read(files.cfg)
        let detector = try detectorFlags.loadDetector(files, letterbox: letterbox, threads: threads)
        return DetectorEvaluation(detector: detector, set: set, letterbox: letterbox)
    }
}

/// "N / total images" on stderr while a command works through a list (on a terminal only).
struct ImageCountLine {
    let total: Int
    let enabled = isatty(STDERR_FILENO) != 0

    func update(_ done: Int) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(done) / \(total) images".utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
