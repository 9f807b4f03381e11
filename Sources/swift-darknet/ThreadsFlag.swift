import CommandLineKit
import Darknet

/// `--threads N`, the threads of each forward pass: by default the cores this process may use
/// (`AvailableCores.count`: its CPU affinity and cgroup quota), shared by the passes that run at
/// once (`detect --jobs`, `serve --workers`). Results do not depend on it.
enum ThreadsFlag {
    /// The option, its help ending with the default and its value here; `sharedBy` names the
    /// option whose count of passes at once divides it (`--jobs`).
    static func option(_ help: String = "threads for each forward pass (results do not depend on it)",
                       sharedBy: String? = nil) -> Option {
        .value("threads", "N", help + ";\ndefault: the cores this process may use (\(AvailableCores.count) here)"
               + (sharedBy.map { " divided by \($0)" } ?? ""))
    }

    /// `--threads`, or the available cores divided among `sharing` passes run at once.
    static func read(_ arguments: inout Arguments, sharing: Int = 1) throws(CLIError) -> Int {
        try arguments.int("threads", default: defaultThreads(sharing: sharing), range: 1...256)
    }

    /// The available cores divided among `sharing` passes (at least 1, at most 256).
    static func defaultThreads(sharing: Int) -> Int {
        min(256, max(1, AvailableCores.count / max(1, sharing)))
    }
}
