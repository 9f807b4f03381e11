import CommandLineKit
/// One `swift-darknet` subcommand.
protocol Command {
    /// The subcommand's name on the command line.
    static var name: String { get }
    /// One line for the usage table.
    static var abstract: String { get }
    /// Usage details.
    static var usage: String { get }
    /// Options that take no value.
    static var flagNames: Set<String> { get }
    /// Reads the options; throws on anything missing or malformed.
    init(arguments: inout Arguments) throws
    /// Does the work; returns the process exit status.
    func run() throws -> Int32
}

extension Command {
    static var flagNames: Set<String> { [] }
}
