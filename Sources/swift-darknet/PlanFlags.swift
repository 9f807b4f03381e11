import CommandLineKit
import Darknet

/// `--strict` and `--memory-limit`: how every command that plans a network plans it.
struct PlanFlags {
    static let options = OptionGroup("planning", [
        .flag("strict", "unknown or repeated cfg keys are errors, not warnings"),
        .value("memory-limit", "MIB", default: String(PlanOptions().memoryLimit >> 20),
               "MiB a network may plan for weights, activations and scratch"),
    ])

    let options: PlanOptions

    init(arguments: inout Arguments) throws {
        let mebibytes = try arguments.int("memory-limit", range: 1...(1 << 30))
        options = PlanOptions(memoryLimit: mebibytes << 20, rejectsUnknownKeys: arguments.flag("strict"))
    }
}
