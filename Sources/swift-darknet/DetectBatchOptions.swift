import BatchDetection
import CommandLineKit

/// `detect`'s batch options: where the images come from (files, directories, a list) and the
/// files written for the whole batch (`--out-json`, `--save-labels`).
struct DetectBatchOptions {
    static let usage = """
          IMAGE may be a directory: its .jpg/.jpeg/.png files, sorted by path (--recursive: and below)
          --list     a file of image paths, one per line (- reads them from stdin), after any IMAGE
          --out-json one JSON file in Darknet's -out format: [{"frame_id", "filename", "objects": [...]}]
          --save-labels  a YOLO label file beside each image (IMAGE minus extension + .txt)
          --jobs N   images run at once, each forward pass on --threads threads (default 1; for
                     throughput on N cores: --jobs N --threads 1); output order and results unchanged
          an image that fails: reported on stderr (--json: a line {"image", "error"}), exit status 1 at the end
        """
    static let flagNames: Set<String> = ["recursive", "save-labels"]

    let recursive: Bool
    let list: String?
    let outJSON: String?
    let saveLabels: Bool
    /// Images run at once (`BatchDetector.jobs`).
    let jobs: Int

    init(arguments: inout Arguments) throws(CLIError) {
        recursive = arguments.flag("recursive")
        list = arguments.string("list")
        outJSON = arguments.string("out-json")
        saveLabels = arguments.flag("save-labels")
        jobs = try arguments.int("jobs", default: 1, range: 1...256)
    }

    /// The images to run on: `positionals` expanded (directories to their images), then the
    /// list's paths.
    /// - Throws: `BatchInputError` (an empty directory, an unreadable or empty list).
    func imagePaths(_ positionals: [String]) throws -> [String] {
        var paths = try ImageInputs.expand(positionals, recursive: recursive)
        if let list { paths += try ImageInputs.readList(list) }
        return paths
    }
}
