import CommandLineKit
import Darknet

/// `--strict` and `--memory-limit`: how every command that plans a network plans it.
struct PlanFlags {
    static let flagNames: Set<String> = ["strict"]
    /// The lines of these options in a command's help.
    static let help = """
          --strict        unknown or repeated cfg keys are errors, not warnings
          --memory-limit  MiB a network may plan for weights, activations and scratch (default 4096)
        """

    let options: PlanOptions

    init(arguments: inout Arguments) throws {
        let mebibytes = try arguments.int("memory-limit", default: PlanOptions().memoryLimit >> 20, range: 1...(1 << 30))
        options = PlanOptions(memoryLimit: mebibytes << 20, rejectsUnknownKeys: arguments.flag("strict"))
    }
}
