import CommandLineKit
import Foundation

/// `swift-darknet`: run Darknet networks from their own `.cfg` and `.weights` files.
let commands: [any Command.Type] = [InfoCommand.self, ForwardCommand.self, DetectCommand.self, VideoCommand.self, ClassifyCommand.self]

@MainActor func printUsage() {
    var text = "usage: swift-darknet <command> [options]\n\ncommands:\n"
    for command in commands { text += "  \(command.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(command.abstract)\n" }
    text += "\nswift-darknet <command> --help shows a command's options.\n"
    FileHandle.standardError.write(Data(text.utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("swift-darknet: \(message)\n".utf8))
    exit(1)
}

var argv = Array(CommandLine.arguments.dropFirst())
guard let name = argv.first, name != "--help", name != "-h" else {
    printUsage()
    exit(argv.isEmpty ? 1 : 0)
}
guard let commandType = commands.first(where: { $0.name == name }) else {
    printUsage()
    fail("unknown command '\(name)'")
}
let rest = Array(argv.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    print("usage: swift-darknet \(commandType.name) \(commandType.usage)")
    exit(0)
}
do {
    var arguments = try Arguments(rest, flagNames: commandType.flagNames)
    let command = try commandType.init(arguments: &arguments)
    try arguments.rejectUnknown()
    exit(try command.run())
} catch {
    fail(String(describing: error))
}
