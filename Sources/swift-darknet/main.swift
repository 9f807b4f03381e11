import CommandLineKit
import Darknet
import Foundation

/// `swift-darknet`: run Darknet networks from their own `.cfg` and `.weights` files.
///
/// Exit status: 0 on success (and for `--help`, `help`, `--version`), 1 for an input error (a
/// file missing or malformed, an image that could not be read), 2 for a usage mistake (an
/// unknown command or option, a missing or malformed option value), with the mistake and a line
/// pointing to the command's help on stderr.
let commands: [any Command.Type] = [InfoCommand.self, ForwardCommand.self, DetectCommand.self, VideoCommand.self, ClassifyCommand.self,
                                    ClassifyVideoCommand.self, ClassifyValidCommand.self, ServeCommand.self, MapCommand.self, ValidCommand.self,
                                    RecallCommand.self, HeadsCommand.self]

/// The tool's version (`--version`).
let version = "0.1.0"

enum ExitStatus {
    static let inputError: Int32 = 1
    static let usageMistake: Int32 = 2
}

@MainActor func overview() -> String {
    var text = "usage: swift-darknet <command> [options]\n       swift-darknet --version\n\ncommands:\n"
    let width = (commands.map { command in command.name.count }.max() ?? 0) + 2
    for command in commands { text += "  \(command.name.padding(toLength: width, withPad: " ", startingAt: 0))\(command.abstract)\n" }
    text += "\nswift-darknet help <command> (or <command> --help) shows a command's options.\n"
    text += DarknetForms.overview + "\n"
    text += "Exit status: 0 success, 1 input error, 2 usage mistake.\n"
    return text
}


func printError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// A usage mistake: the message and, instead of the whole help, the synopsis and where the help
/// is (`help`), on stderr; exit status 2.
func usageMistake(_ message: String, help: String) -> Never {
    printError("swift-darknet: \(message)\n" + help)
    exit(ExitStatus.usageMistake)
}

/// The lines after a command's usage mistake: its synopsis and how to see its options.
func helpPointer(_ command: any Command.Type) -> String {
    command.help.synopsis + "\nRun 'swift-darknet \(command.name) --help' for the options.\n"
}

func isHelp(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }

/// "unknown command 'detcet'", with the nearest command's name when it looks like a typo.
@MainActor func unknownCommand(_ name: String) -> String {
    let names = commands.map { command in command.name }
    guard let nearest = nearestName(to: name, among: names) else { return "unknown command '\(name)'" }
    return "unknown command '\(name)' (did you mean '\(nearest)'?)"
}

var argv = Array(CommandLine.arguments.dropFirst())
do {
    if let (name, rest) = try DarknetForms.command(in: argv) { argv = [name] + rest }
} catch {
    usageMistake(error.description, help: overview())
}
guard let name = argv.first else {
    printError(overview())
    exit(ExitStatus.usageMistake)
}
if isHelp(name) || name == "help" {
    guard argv.count > 1 else {
        print(overview(), terminator: "")
        exit(0)
    }
    guard let command = commands.first(where: { $0.name == argv[1] }) else {
        usageMistake(unknownCommand(argv[1]), help: overview())
    }
    print(command.help.text, terminator: "")
    exit(0)
}
if name == "--version" {
    print("swift-darknet \(version)")
    exit(0)
}
guard let commandType = commands.first(where: { $0.name == name }) else {
    usageMistake(unknownCommand(name), help: overview())
}
let rest = Array(argv.dropFirst())
if rest.contains(where: isHelp) {
    print(commandType.help.text, terminator: "")
    exit(0)
}
let command: any Command
do {
    try DarknetForms.checkOptions(rest, declared: commandType.help.options)
    var arguments = try Arguments(rest, options: commandType.help.options)
    arguments.takeLeadingOperands(DarknetForms.fileOrder)
    command = try commandType.init(arguments: &arguments)
    try arguments.rejectUnknown()
} catch {
    usageMistake(String(describing: error), help: helpPointer(commandType))
}
// A hint for whoever watches the terminal (`swift run swift-darknet` is a debug build); scripts
// and tests reading stderr get only what the command itself says.
if isatty(STDERR_FILENO) != 0 {
    for warning in [KernelBuild.warning, CPUFeatures.current.blasWarning].compactMap({ $0 }) {
        printError("swift-darknet: warning: \(warning)\n")
    }
}
do {
    exit(try command.run())
} catch {
    printError("swift-darknet: \(cliMessage(error))\n")
    exit(ExitStatus.inputError)
}
