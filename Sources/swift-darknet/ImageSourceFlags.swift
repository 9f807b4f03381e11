import BatchDetection
import CommandLineKit

/// Where `detect` and `classify` take their images from: IMAGE arguments (files, or directories
/// of image files), then the paths of `--list FILE` (`-`: stdin).
struct ImageSourceFlags {
    static let options = [
        Option.flag("recursive", "with a directory IMAGE: its images and those below it"),
        .value("list", "FILE|-", "a file of image paths, one per line (- reads them from stdin), after any IMAGE"),
    ]
    /// The help's words on IMAGE operands.
    static let operandHelp = "IMAGE may be a directory: its image files (.jpg .png .heic .bmp .tif .webp .ppm ...), sorted by path"

    let recursive: Bool
    let list: String?

    init(arguments: inout Arguments) {
        recursive = arguments.flag("recursive")
        list = arguments.string("list")
    }

    /// The images to run on: `positionals` expanded (directories to their images), then the
    /// list's paths.
    /// - Throws: `BatchInputError` (an empty directory, an unreadable or empty list).
    func imagePaths(_ positionals: [String]) throws -> [String] {
        var paths = try ImageInputs.expand(positionals, recursive: recursive)
        if let list { paths += try ImageInputs.readList(list) }
        return paths
    }

    /// Throws unless an image is given: an IMAGE argument or a list.
    func requireImages(_ positionals: [String]) throws(CLIError) {
        guard !positionals.isEmpty || list != nil else { throw CLIError("no image given") }
    }
}
