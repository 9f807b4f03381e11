import CommandLineKit

/// Darknet's own command lines, so one copied from Darknet's documentation runs here: its
/// two-word commands (`detector test`, `classifier predict`, ...) and its files given by
/// position (`detect yolov3.cfg yolov3.weights dog.jpg`). Its single-dash options are not taken:
/// `-thresh` is a usage mistake naming `--thresh` (`Arguments`).
enum DarknetForms {
    /// Darknet's two-word commands and the command each is here.
    static let twoWordCommands: [String: [String: String]] = [
        "detector": ["test": "detect", "demo": "video", "map": "map", "valid": "valid", "recall": "recall"],
        "classifier": ["predict": "classify"],
    ]

    /// The order in which Darknet's commands take their files by position, each by its ending.
    static let fileOrder: [(option: String, suffix: String)] = [("data", ".data"), ("cfg", ".cfg"), ("weights", ".weights")]

    /// Darknet's single-dash options whose two-dash spelling here is not the nearest name, or
    /// that have none, and what to write instead.
    static let optionHints: [String: String] = [
        "-ext_output": "--json prints each box's coordinates",
        "-dont_show": "swift-darknet opens no window: leave it out",
        "-out": "Darknet's -out is --out-json here",
        "-i": "Darknet's GPU index: swift-darknet runs on the CPU, leave it out",
        "-letter_box": "swift-darknet letterboxes as pjreddie's Darknet; --stretch resizes as AlexeyAB's without -letter_box",
    ]

    /// A usage mistake for the first of `arguments` that is one of Darknet's options in
    /// `optionHints`, saying what to write instead.
    static func checkOptions(_ arguments: [String]) throws(CLIError) {
        guard let option = arguments.first(where: { optionHints[$0] != nil }), let hint = optionHints[option] else { return }
        throw CLIError("unknown option \(option) (\(hint))")
    }

    /// One line for the tool's overview.
    static let overview = """
        Darknet's command lines work too: files by position (detect [DATA] CFG WEIGHTS IMAGE...) and
        detector test|demo|map|valid|recall, classifier predict; options take two dashes (--thresh).
        """

    /// The command a Darknet two-word command names and the arguments after it; nil when
    /// `arguments` does not start with one of Darknet's first words. Throws for a second word
    /// this tool does not run (`detector train`).
    static func command(in arguments: [String]) throws(CLIError) -> (name: String, rest: [String])? {
        guard let first = arguments.first, let seconds = twoWordCommands[first] else { return nil }
        let second = arguments.dropFirst().first ?? ""
        guard let name = seconds[second] else {
            let given = second.isEmpty || second.hasPrefix("-") ? first : "\(first) \(second)"
            throw CLIError("unknown command '\(given)' (Darknet's \(first) commands here: \(seconds.keys.sorted().joined(separator: ", ")))")
        }
        return (name, Array(arguments.dropFirst(2)))
    }
}
