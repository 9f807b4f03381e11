import CommandLineKit

/// One `swift-darknet` subcommand.
protocol Command {
    /// The subcommand's name on the command line.
    static var name: String { get }
    /// One line for the usage table.
    static var abstract: String { get }
    /// The operands after the options (`IMAGE_OR_DIR...`); empty for none.
    static var operands: String { get }
    /// Lines of the help between the synopsis and the options.
    static var description: String { get }
    /// Every option, by group: declared once, parsed (`Arguments`) and documented (`help`) from here.
    static var optionGroups: [OptionGroup] { get }
    /// Reads the options; throws on anything missing or malformed.
    init(arguments: inout Arguments) throws
    /// Does the work; returns the process exit status.
    func run() throws -> Int32
}

extension Command {
    static var operands: String { "" }
    static var description: String { "" }

    /// The help `--help` prints, written from the declarations.
    static var help: CommandHelp {
        CommandHelp(command: "swift-darknet \(name)", operands: operands, description: description, groups: optionGroups)
    }
}
