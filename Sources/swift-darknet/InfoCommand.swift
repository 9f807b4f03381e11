import BatchDetection
import CommandLineKit
import Darknet
import Foundation

/// `swift-darknet info`: the layer table of a cfg, like Darknet's own summary.
struct InfoCommand: Command {
    static let name = "info"
    static let abstract = "print each layer's shapes and BFLOPs for a .cfg"
    static let optionGroups = [
        OptionGroup("network", [
            .value("cfg", "FILE", required: true, "the Darknet .cfg"),
            .flag("plan", "also the processor and BLAS planned for, and each convolution's algorithm and arithmetic, and why"),
        ]),
        PlanFlags.options,
        PrecisionFlags.options,
        PlannedCPU.options,
    ]

    let cfg: URL
    let plan: PlanFlags
    let showsPlan: Bool
    let processor: PlannedCPU
    let precision: PrecisionFlags

    init(arguments: inout Arguments) throws {
        cfg = URL(fileURLWithPath: try arguments.required("cfg"))
        plan = try PlanFlags(arguments: &arguments)
        showsPlan = arguments.flag("plan")
        processor = try PlannedCPU(arguments: &arguments)
        precision = try PrecisionFlags(arguments: &arguments)
        if precision.calibrate != nil { throw CLIError("info plans without running the network: give --calibration FILE, not --calibrate") }
        if (precision.int8 || precision.reduced != nil) && !showsPlan { throw CLIError("--precision is for info --plan") }
    }

    func run() throws -> Int32 {
        let spec = try loadSpec(cfg)
        try report(spec, options: plan.options)
        guard showsPlan else {
            print(LayerTable.render(try NetworkPlan(spec: spec, options: plan.options)))
            return 0
        }
        var options = plan.options
        options.cpu = processor.cpu
        options = try precision.options(options, spec: spec, float: { throw CLIError("info does not calibrate") },
                                        threads: 1, log: { FileHandle.standardError.write(Data("swift-darknet: \($0)\n".utf8)) })
        let planned = try NetworkPlan(spec: spec, options: options)
        print("plan for \(planned.cpu)")
        print(LayerTable.render(planned, algorithms: true))
        return 0
    }
}

/// Reads and interprets a cfg file, naming the file in errors.
func loadSpec(_ url: URL) throws -> NetworkSpec {
    try NetworkSpec.parse(contentsOf: url)
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("swift-darknet: warning: \(message)\n".utf8))
}
