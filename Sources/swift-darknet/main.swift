import CommandLineKit
import Darknet
import Foundation

/// `swift-darknet`: run Darknet networks from their own `.cfg` and `.weights` files.
///
/// Exit status: 0 on success (and for `--help`, `help`, `--version`), 1 for an input error (a
/// file missing or malformed, an image that could not be read), 2 for a usage mistake (an
/// unknown command or option, a missing or malformed option value), with the usage on stderr.
let commands: [any Command.Type] = [InfoCommand.self, ForwardCommand.self, DetectCommand.self, VideoCommand.self, ClassifyCommand.self,
                                    ServeCommand.self, MapCommand.self, ValidCommand.self, RecallCommand.self]

/// The tool's version (`--version`).
let version = "0.1.0"

enum ExitStatus {
    static let inputError: Int32 = 1
    static let usageMistake: Int32 = 2
}

@MainActor func overview() -> String {
    var text = "usage: swift-darknet <command> [options]\n       swift-darknet --version\n\ncommands:\n"
    for command in commands { text += "  \(command.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(command.abstract)\n" }
    text += "\nswift-darknet help <command> (or <command> --help) shows a command's options.\n"
    text += "Exit status: 0 success, 1 input error, 2 usage mistake.\n"
    return text
}

func commandUsage(_ command: any Command.Type) -> String {
    "usage: swift-darknet \(command.name) \(command.usage)\n"
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// A usage mistake: the message, then the usage, on stderr; exit status 2.
func usageMistake(_ message: String, usage: String) -> Never {
    printError("swift-darknet: \(message)\n" + usage)
    exit(ExitStatus.usageMistake)
}

func isHelp(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }

let argv = Array(CommandLine.arguments.dropFirst())
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
        usageMistake("unknown command '\(argv[1])'", usage: overview())
    }
    print(commandUsage(command), terminator: "")
    exit(0)
}
if name == "--version" {
    print("swift-darknet \(version)")
    exit(0)
}
guard let commandType = commands.first(where: { $0.name == name }) else {
    usageMistake("unknown command '\(name)'", usage: overview())
}
let rest = Array(argv.dropFirst())
if rest.contains(where: isHelp) {
    print(commandUsage(commandType), terminator: "")
    exit(0)
}
let command: any Command
do {
    var arguments = try Arguments(rest, flagNames: commandType.flagNames)
    command = try commandType.init(arguments: &arguments)
    try arguments.rejectUnknown()
} catch {
    usageMistake(String(describing: error), usage: commandUsage(commandType))
}
do {
    exit(try command.run())
} catch {
    printError("swift-darknet: \(cliMessage(error))\n")
    exit(ExitStatus.inputError)
}
