import CommandLineKit
import Darknet
import Foundation

/// Darknet's own command lines, so one copied from Darknet's documentation runs here: its
/// two-word commands (`detector test`, `classifier predict`, ...) and its files given by
/// position (`detect yolov3.cfg yolov3.weights dog.jpg`). Its single-dash options are not taken:
/// `-thresh` is a usage mistake naming `--thresh` (`Arguments`).
enum DarknetForms {
    /// Darknet's two-word commands and the command each is here.
    static let twoWordCommands: [String: [String: String]] = [
        "detector": ["test": "detect", "demo": "video", "map": "map", "valid": "valid", "recall": "recall"],
        "classifier": ["predict": "classify", "demo": "classify-video", "valid": "classify-valid"],
    ]

    /// The `detect` options that are the settings of YOLOv1's own Darknet command, `yolo test`
    /// (`test_yolo`): the image stretched, threshold 0.2, no hierarchy, NMS 0.4, boxes where the
    /// network puts them. Options given after the command override them (`--thresh 0.3`).
    static let yoloTestOptions = ["--stretch", "--thresh", "0.2", "--hier", "0", "--nms", "0.4", "--yolov1-boxes", "yolo-test"]

    /// Where Darknet finds one of its own files (`cfg/coco.data`, `data/voc.names`), in order:
    /// in the working directory (pjreddie's Darknet run from its folder), then in Debian's
    /// /usr/share/darknet.
    static func places(of darknetFile: String) -> [String] { [darknetFile, "/usr/share/darknet/" + darknetFile] }

    /// The first of `places(of: darknetFile)` that can be read.
    static func locate(_ darknetFile: String) -> URL? {
        places(of: darknetFile).lazy.map { URL(fileURLWithPath: $0) }.first { FileManager.default.isReadableFile(atPath: $0.path) }
    }

    /// The order in which Darknet's commands take their files by position, each by its ending.
    static let fileOrder: [(option: String, suffix: String)] = [("data", ".data"), ("cfg", ".cfg"), ("weights", ".weights")]

    /// Darknet's single-dash options whose two-dash spelling here is not the nearest name, or
    /// that have none: what to write instead, for a command that declares `when` (any, if nil).
    static let optionHints: [(option: String, hint: String, when: String?)] = [
        ("-out", "pjreddie's -out IMAGE is --out IMAGE.jpg here, AlexeyAB's -out FILE.json is --out-json", "out-json"),
        ("-out_filename", "Darknet's -out_filename is --out here", "out"),
        ("-ext_output", "--json prints each box's coordinates", nil),
        ("-dont_show", "swift-darknet opens no window: leave it out", nil),
        ("-i", "Darknet's GPU choice: swift-darknet runs on the CPU, leave it out", nil),
        ("-nogpu", "Darknet's GPU choice: swift-darknet runs on the CPU, leave it out", nil),
        ("-c", "Darknet's camera index -c N is --camera N here", "camera"),
        ("-w", "a camera's frame size is --input-option video_size=WxH here", "camera"),
        ("-fps", "a camera's frame rate is --input-option framerate=N here", "camera"),
        ("-letter_box", "swift-darknet letterboxes as pjreddie's Darknet; --stretch resizes as AlexeyAB's without -letter_box", nil),
    ]

    /// A usage mistake for the first of `arguments` that is one of Darknet's options in
    /// `optionHints` for a command declaring `options`, saying what to write instead.
    static func checkOptions(_ arguments: [String], declared options: [Option]) throws(CLIError) {
        let names = Set(options.map(\.name))
        let hints = optionHints.filter { $0.when.map(names.contains) ?? true }
        for argument in arguments {
            if let hint = hints.first(where: { $0.option == argument }) {
                throw CLIError("unknown option \(argument) (\(hint.hint))")
            }
        }
    }

    /// The `.data` file one of Darknet's one-word commands reads its labels from: `detect` reads
    /// `cfg/coco.data` and `classify` `cfg/imagenet1k.data` (pjreddie's Darknet from its own
    /// folder; Debian's build from /usr/share/darknet/cfg). A command line in Darknet's form that
    /// names no labels gets them from there, as Darknet's would.
    struct DefaultData {
        /// The command, as Darknet's one-word command names it.
        let command: String
        let fileName: String

        static let detect = DefaultData(command: "detect", fileName: "coco.data")
        static let classify = DefaultData(command: "classify", fileName: "imagenet1k.data")

        /// The labels of the file `DarknetForms.locate` finds, checked against the network's `classes`
        /// (`what`, as `DataFile.check` names them); none, with a warning saying why and what to
        /// give instead, when there is no such file or it does not fit the network: the labels
        /// of a command the user did not name never make it fail.
        func labels(classes: Int, cfg: URL, what: String) -> (labels: [String], file: String) {
            let instead = "labels are class indices; give --names FILE or --data FILE"
            guard let url = DarknetForms.locate("cfg/" + fileName) else {
                let places = DarknetForms.places(of: "cfg/" + fileName).joined(separator: " nor ")
                warn("Darknet's \(command) reads its labels from cfg/\(fileName): there is neither \(places); \(instead)")
                return ([], "<labels>")
            }
            do {
                let file = try DataFile(contentsOf: url)
                try file.check(classes: classes, cfg: cfg.path, what: what)
                return (try file.labels(), file.names?.path ?? url.path)
            } catch {
                warn("Darknet's \(command) reads its labels from \(url.path): \(error); \(instead)")
                return ([], "<labels>")
            }
        }
    }

    /// One line for the tool's overview.
    static let overview = """
        Darknet's command lines work too: files by position (detect [DATA] CFG WEIGHTS IMAGE...) and
        detector test|demo|map|valid|recall, classifier predict|demo|valid, yolo test; options take two dashes (--thresh).
        """

    /// The command a Darknet two-word command names and the arguments after it; nil when
    /// `arguments` does not start with one of Darknet's first words. Throws for a second word
    /// this tool does not run (`detector train`), and for Darknet's options before the command
    /// (`darknet -i 1 detect ...`).
    static func command(in arguments: [String]) throws(CLIError) -> (name: String, rest: [String])? {
        if let first = arguments.first, first.hasPrefix("-") { try checkOptions([first], declared: []) }
        if arguments.first == "yolo" { return try yoloTest(Array(arguments.dropFirst())) }
        guard let first = arguments.first, let seconds = twoWordCommands[first] else { return nil }
        let second = arguments.dropFirst().first ?? ""
        guard let name = seconds[second] else {
            let given = second.isEmpty || second.hasPrefix("-") ? first : "\(first) \(second)"
            throw CLIError("unknown command '\(given)' (Darknet's \(first) commands here: \(seconds.keys.sorted().joined(separator: ", ")))")
        }
        return (name, Array(arguments.dropFirst(2)))
    }

    /// `yolo test ...` as `detect` with `yoloTestOptions` and, unless `--names` or `--data` is
    /// given, the names `yolo test` prints, which Darknet compiles in: VOC's, as `data/voc.names`
    /// has them. The options given after it override these.
    private static func yoloTest(_ arguments: [String]) throws(CLIError) -> (name: String, rest: [String]) {
        guard arguments.first == "test" else {
            let given = arguments.first.map { $0.hasPrefix("-") ? "yolo" : "yolo \($0)" } ?? "yolo"
            throw CLIError("unknown command '\(given)' (Darknet's yolo commands here: test)")
        }
        let rest = Array(arguments.dropFirst())
        let namesGiven = rest.contains { ["--names", "--data"].contains($0) || $0.hasPrefix("--names=") || $0.hasPrefix("--data=") }
        let names = namesGiven ? nil : locate("data/voc.names")
        return ("detect", yoloTestOptions + (names.map { ["--names", $0.path] } ?? []) + rest)
    }
}
