import BatchDetection
import CommandLineKit

/// `detect`'s batch options: where the images come from (`ImageSourceFlags`) and the files
/// written for the whole batch (`--out-json`, `--save-labels`).
struct DetectBatchOptions {
    static let options = OptionGroup("images", ImageSourceFlags.options + [
        .value("out-json", "FILE", #"one JSON file in Darknet's -out format: [{"frame_id", "filename", "objects": [...]}]"#),
        .flag("save-labels", "a YOLO label file beside each image (IMAGE minus extension + .txt)"),
        .value("jobs", "N", default: "1", """
            images run at once, each forward pass on --threads threads (by default the cores
            divided among them; for throughput on N cores: --jobs N); output order and results unchanged
            """),
    ])
    /// The help's words on images that fail.
    static let failureHelp = #"an image that fails: reported on stderr (--json: a line {"image", "error"}), exit status 1 at the end"#

    let sources: ImageSourceFlags
    let outJSON: String?
    let saveLabels: Bool
    /// Images run at once (`BatchDetector.jobs`).
    let jobs: Int

    init(arguments: inout Arguments) throws(CLIError) {
        sources = ImageSourceFlags(arguments: &arguments)
        outJSON = arguments.string("out-json")
        saveLabels = arguments.flag("save-labels")
        jobs = try arguments.int("jobs", range: 1...256)
    }
}
