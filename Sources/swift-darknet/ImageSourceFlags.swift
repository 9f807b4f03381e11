import BatchDetection
import CommandLineKit
import Foundation

/// Where `detect` and `classify` take their images from: IMAGE arguments (files, or directories
/// of image files), then the paths of `--list FILE` (`-`: stdin).
struct ImageSourceFlags {
    static let options = [
        Option.flag("recursive", "with a directory IMAGE: its images and those below it"),
        .value("list", "FILE|-", """
            a file of image paths, one per line (- reads them from stdin), after any IMAGE. In Darknet's
            form (CFG WEIGHTS by position) without IMAGE or --list, Darknet's "Enter Image Path: " prompt
            """),
    ]
    /// The help's words on IMAGE operands.
    static let operandHelp = "IMAGE may be a directory: its image files (.jpg .png .heic .bmp .tif .webp .ppm ...), sorted by path"

    let recursive: Bool
    let list: String?
    /// Whether the command line is in Darknet's form (its cfg given by position), where no image
    /// means Darknet's prompt for image paths (`ImagePathPrompt`).
    let darknetForm: Bool

    init(arguments: inout Arguments) {
        recursive = arguments.flag("recursive")
        list = arguments.string("list")
        darknetForm = arguments.optionsByPosition.contains("cfg")
    }

    /// Whether image paths are asked for on stdin, as Darknet's `detect` and `classify` do when
    /// their command line names no image: no IMAGE, no list, Darknet's form.
    func prompts(_ positionals: [String]) -> Bool {
        positionals.isEmpty && list == nil && darknetForm
    }

    /// The images to run on: `positionals` expanded (directories to their images), then the
    /// list's paths.
    /// - Throws: `BatchInputError` (an empty directory, an unreadable or empty list).
    func imagePaths(_ positionals: [String]) throws -> [String] {
        var paths = try ImageInputs.expand(positionals, recursive: recursive)
        if let list { paths += try ImageInputs.readList(list) }
        return paths
    }

    /// Throws unless an image is given (an IMAGE argument or a list) or will be asked for.
    func requireImages(_ positionals: [String]) throws(CLIError) {
        guard !positionals.isEmpty || list != nil || darknetForm else { throw CLIError("no image given") }
    }
}

/// Darknet's prompt for image paths (`detect CFG WEIGHTS` and `classify CFG WEIGHTS` without an
/// image): "Enter Image Path: " before each line read from stdin, until its end. An empty line
/// is asked again. The prompt goes to stdout, as Darknet prints it, or to stderr (`toStandardError`,
/// for `--json`, whose stdout stays one JSON object a line).
struct ImagePathPrompt: Sequence, IteratorProtocol {
    static let text = "Enter Image Path: "
    let toStandardError: Bool

    mutating func next() -> String? {
        while true {
            if toStandardError {
                printError(Self.text)
            } else {
                print(Self.text, terminator: "")
                fflush(nil)  // every output stream, stdout included
            }
            guard let line = readLine() else { return nil }
            let path = line.trimmingCharacters(in: .whitespaces)
            if !path.isEmpty { return path }
        }
    }
}
