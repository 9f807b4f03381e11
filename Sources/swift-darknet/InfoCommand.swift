import CommandLineKit
import Darknet
import Foundation

/// `swift-darknet info`: the layer table of a cfg, like Darknet's own summary.
struct InfoCommand: Command {
    static let name = "info"
    static let abstract = "print each layer's shapes and BFLOPs for a .cfg"
    static let usage = "--cfg FILE"

    let cfg: URL

    init(arguments: inout Arguments) throws {
        cfg = URL(fileURLWithPath: try arguments.required("cfg"))
    }

    func run() throws -> Int32 {
        let spec = try loadSpec(cfg)
        let plan = try NetworkPlan(spec: spec)
        for diagnostic in spec.diagnostics { warn(diagnostic.description) }
        print(LayerTable.render(plan))
        return 0
    }
}

/// Reads and interprets a cfg file, naming the file in errors.
func loadSpec(_ url: URL) throws -> NetworkSpec {
    let data: Data
    do { data = try Data(contentsOf: url) } catch { throw CLIError("\(url.path): cannot read the file") }
    return try NetworkSpec.parse(bytes: [UInt8](data), file: url.path)
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("swift-darknet: warning: \(message)\n".utf8))
}
