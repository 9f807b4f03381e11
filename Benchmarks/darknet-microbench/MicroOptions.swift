import CommandLineKit
import Foundation

/// What to measure and how often.
struct MicroOptions {
    let cfg: URL
    let size: Int
    let threads: Int
    let runs: Int
    let warmup: Int
    let filter: String?
    let json: Bool

    /// `Weights/darknet/cfg/yolov3-tiny.cfg` of the checkout this file belongs to, else of
    /// the working directory.
    static var defaultCfg: URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let relative = "Weights/darknet/cfg/yolov3-tiny.cfg"
        let inCheckout = root.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: inCheckout.path) ? inCheckout : URL(fileURLWithPath: relative)
    }

    init(arguments: inout Arguments) throws {
        cfg = arguments.string("cfg").map { URL(fileURLWithPath: $0) } ?? Self.defaultCfg
        size = try arguments.int("size", default: 416, range: 32...8192)
        threads = try arguments.int("threads", default: 1, range: 1...256)
        runs = try arguments.int("runs", default: 10, range: 1...100_000)
        warmup = try arguments.int("warmup", default: 2, range: 1...1000)
        filter = arguments.string("filter")
        json = arguments.flag("json")
    }

    /// Whether the benchmark called `name` is selected by `--filter` (case-insensitive substring).
    func selects(_ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return name.lowercased().contains(filter.lowercased())
    }
}
