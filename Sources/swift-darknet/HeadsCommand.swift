import CommandLineKit
import Darknet
import Foundation

/// `swift-darknet heads`: Darknet's detections from the inputs of a network's detection heads,
/// computed by another runtime (`Detector.detect(headInputs:imageWidth:imageHeight:options:)`).
struct HeadsCommand: Command {
    static let name = "heads"
    static let abstract = "detections from head inputs another runtime computed (float32 files)"
    static let description = """
        each --head-input is one detection head's input, in layer order: the output of the layer before it,
        float32 little-endian planar CHW (what `forward --dump DIR --layers` writes for that layer)
        default output: "label: NN%" lines, as Darknet prints them
        """
    static let detectionFlags = DetectionFlags()
    static let optionGroups = [
        ModelOptions.options([LabelFiles.option]),
        OptionGroup("heads", [
            .value("head-input", "FILE", required: true, "one head's input; given once per head"),
            .value("image-size", "WxH", required: true, "the original image's size in pixels; boxes are mapped back to it"),
        ]),
        OptionGroup("detection", detectionFlags.options),
        OptionGroup("output", [
            .flag("json", #"one line: {"width", "height", "detections": [...]}, the fields of detect --json"#),
        ]),
        PlanFlags.options,
    ]

    let model: ModelOptions
    let labelFiles: LabelFiles
    let plan: PlanFlags
    let options: DetectionOptions
    let headInputs: [URL]
    let imageSize: (width: Int, height: Int)
    let json: Bool

    init(arguments: inout Arguments) throws {
        model = try ModelOptions(arguments: &arguments)
        labelFiles = try LabelFiles(arguments: &arguments, names: model.names)
        plan = try PlanFlags(arguments: &arguments)
        options = try Self.detectionFlags.read(&arguments)
        headInputs = arguments.strings("head-input").map { URL(fileURLWithPath: $0) }
        guard !headInputs.isEmpty else { throw CLIError("give --head-input once per detection head, in layer order") }
        let size = try arguments.required("image-size")
        guard let imageSize = pixelSize(size) else {
            throw CLIError("--image-size must be WIDTHxHEIGHT in pixels (e.g. 768x576), got '\(size)'")
        }
        self.imageSize = imageSize
        json = arguments.flag("json")
    }

    func run() throws -> Int32 {
        let (cfg, weights, names) = try model.resolve()
        let spec = try loadSpec(cfg)
        try report(spec, options: plan.options)
        let network = try Network(spec: spec, weights: weights, options: plan.options)
        let detector = try labelFiles.detector(network, names: names, cfg: cfg, threads: 1)
        let shapes = detector.headInputShapes
        guard headInputs.count == shapes.count else {
            throw CLIError("\(headInputs.count) --head-input given, the network has \(shapes.count) detection heads "
                           + "(inputs \(shapes.map(\.description).joined(separator: ", ")))")
        }
        let tensors = try zip(headInputs, shapes).enumerated().map { n, input in
            try readFloats(input.0, expectedCount: input.1.count, what: "the \(input.1) input of detection head \(n)")
        }
        let detections = try detector.detect(headInputs: tensors, imageWidth: imageSize.width, imageHeight: imageSize.height,
                                             options: options)
        if json {
            print(#"{"width": \#(imageSize.width), "height": \#(imageSize.height), "detections": \#(DetectionJSON.array(detections))}"#)
        } else {
            for d in detections { print(String(format: "%@: %.0f%%", d.label, d.confidence * 100)) }
        }
        return 0
    }
}
