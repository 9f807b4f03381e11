import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `swift-darknet forward`: one forward pass on a raw tensor, dumping layer outputs.
struct ForwardCommand: Command {
    static let name = "forward"
    static let abstract = "run one forward pass and dump layer outputs"
    static let optionGroups = [
        OptionGroup("network and input", [
            .value("cfg", "FILE", required: true, "the Darknet .cfg"),
            .value("weights", "FILE", required: true, "its .weights"),
            .value("input-bin", "FILE", """
                raw float32 little-endian planar CHW tensor at the network size; given N times, N
                consecutive passes of one session (recurrent state carried), dumped to DIR/stepNN/
                """),
            .value("image", "FILE", "an image file, letterboxed to the network size as Darknet does (or --input-bin)"),
        ]),
        OptionGroup("output", [
            .value("dump", "DIR", "writes DIR/layerNNN.bin (float32 LE, CHW) and DIR/layers.json"),
            .value("layers", "yolo|all|i,j,k", default: "yolo", "which layers to dump"),
            ThreadsFlag.option("threads for the forward pass (results do not depend on it)"),
        ]),
        PlanFlags.options,
        PrecisionFlags.options,
    ]

    let cfg: URL
    let weights: URL
    let input: Input
    let dump: URL?
    let selection: DumpSelection
    let threads: Int
    let plan: PlanFlags
    let precision: PrecisionFlags

    init(arguments: inout Arguments) throws {
        cfg = URL(fileURLWithPath: try arguments.required("cfg"))
        weights = URL(fileURLWithPath: try arguments.required("weights"))
        switch (arguments.strings("input-bin"), arguments.string("image")) {
        case (let bins, nil) where !bins.isEmpty: input = .tensors(bins.map { URL(fileURLWithPath: $0) })
        case ([], let image?): input = .image(URL(fileURLWithPath: image))
        default: throw CLIError("give --input-bin (once, or once per time step) or --image, not both")
        }
        dump = arguments.string("dump").map { URL(fileURLWithPath: $0) }
        selection = try DumpSelection(arguments.stringOrDefault("layers") ?? "yolo")
        threads = try ThreadsFlag.read(&arguments)
        plan = try PlanFlags(arguments: &arguments)
        precision = try PrecisionFlags(arguments: &arguments)
    }

    func run() throws -> Int32 {
        let spec = try loadSpec(cfg)
        try report(spec, options: plan.options)
        let network = try precision.network(spec: spec, weights: weights, plan: plan.options, threads: threads)
        let tensors: [[Float]]
        switch input {
        case .tensors(let urls):
            tensors = try urls.map { try readFloats($0, expectedCount: network.inputShape.count) }
        case .image(let url):
            let shape = network.inputShape
            tensors = [try PlanarImage(contentsOf: url, channels: shape.channels == 1 ? 1 : 3)
                .letterboxed(width: shape.width, height: shape.height).image.pixels]
        }
        let layers = try selection.layers(in: network.plan)
        let session = InferenceSession(network: network, retaining: .layers(Set(layers)), threads: threads)
        // Several inputs are consecutive time steps of one session: recurrent layers carry their state.
        for (step, tensor) in tensors.enumerated() {
            try session.forward(tensor)
            let prefix = tensors.count > 1 ? String(format: "step %02d ", step) : ""
            guard let dump else {
                for index in layers {
                    let output = try session.output(ofLayer: index)
                    print(prefix + "layer \(index) \(network.plan.layers[index].spec.kind.sectionName) \(output.shape)")
                }
                continue
            }
            try LayerDump.write(session: session, layers: layers,
                                to: tensors.count > 1 ? dump.appendingPathComponent(String(format: "step%02d", step)) : dump)
        }
        return 0
    }
}

/// Where the input tensors come from.
enum Input {
    /// Raw tensors, one per forward pass (time step).
    case tensors([URL])
    case image(URL)
}

/// Which layers `--layers` names.
enum DumpSelection {
    case detection, all, indices([Int])

    init(_ text: String) throws {
        switch text {
        case "yolo": self = .detection
        case "all": self = .all
        default:
            let parts = text.split(separator: ",")
            let values = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !parts.isEmpty, values.count == parts.count else {
                throw CLIError("--layers must be 'yolo', 'all' or a comma-separated list of layer indices, got '\(text)'")
            }
            self = .indices(values)
        }
    }

    func layers(in plan: NetworkPlan) throws -> [Int] {
        switch self {
        case .detection: return plan.detectionHeads.map(\.index)
        case .all: return Array(plan.layers.indices)
        case .indices(let values):
            if let bad = values.first(where: { !plan.layers.indices.contains($0) }) {
                throw CLIError("--layers: layer \(bad) does not exist (the network has \(plan.layers.count) layers)")
            }
            return values
        }
    }
}

func readBytes(_ url: URL) throws -> [UInt8] {
    try FileError.contents(of: url)
}

/// Reads a raw float32 little-endian tensor of exactly `expectedCount` values (`what` says whose).
func readFloats(_ url: URL, expectedCount: Int, what: String = "the network input") throws -> [Float] {
    let bytes = try readBytes(url)
    guard bytes.count == expectedCount * 4 else {
        throw CLIError("\(url.path): \(bytes.count) bytes, expected \(expectedCount * 4) (\(expectedCount) float32 values for \(what))")
    }
    return bytes.withUnsafeBytes { raw in
        (0..<expectedCount).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
    }
}
