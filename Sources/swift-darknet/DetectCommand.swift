import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `swift-darknet detect`: Darknet's detections for one or more images.
struct DetectCommand: Command {
    static let name = "detect"
    static let abstract = "detect objects in images (text, JSON lines, annotated images)"
    static let usage = """
        --cfg FILE --weights FILE [--names FILE | --data FILE] [--thresh 0.5] [--hier 0.5] [--nms 0.45]
                     [--stretch] [--json] [--out DIR_OR_FILE] [--threads 1] [--strict] IMAGE...
          default output: "label: NN%" lines per image, as Darknet prints them
          --names    one label per line (e.g. coco.names); without it (or --data), class indices
          --data     a Darknet .data file (coco.data, obj.data): its names=, its classes= checked
          --thresh   smallest confidence reported; --hier: YOLOv2 hierarchy threshold; --nms: overlap for NMS
          --json     one line per image: {"image", "width", "height", "detections": [...]}
          --out      annotated image: a .png/.jpg file (one image) or a directory
          --stretch  resize without keeping the aspect ratio (Darknet letterboxes)
          --threads  threads for each forward pass (results do not depend on it)
          --strict   unknown or repeated cfg keys are errors, not warnings
        """
    static let flagNames: Set<String> = ["json", "stretch", "strict"]

    let cfg: URL
    let weights: URL
    let names: URL?
    let labelFiles: LabelFiles
    let strict: Bool
    let options: DetectionOptions
    let json: Bool
    let out: URL?
    let images: [String]
    let threads: Int

    init(arguments: inout Arguments) throws {
        cfg = URL(fileURLWithPath: try arguments.required("cfg"))
        weights = URL(fileURLWithPath: try arguments.required("weights"))
        labelFiles = try LabelFiles(arguments: &arguments)
        names = labelFiles.names
        strict = arguments.flag("strict")
        options = DetectionOptions(
            threshold: try arguments.float("thresh", default: 0.5, range: 0...1),
            hierThreshold: try arguments.float("hier", default: 0.5, range: 0...1),
            nmsThreshold: try arguments.float("nms", default: 0.45, range: 0...1),
            letterbox: !arguments.flag("stretch"))
        json = arguments.flag("json")
        threads = try arguments.int("threads", default: 1, range: 1...256)
        out = arguments.string("out").map { URL(fileURLWithPath: $0) }
        images = arguments.positionals
        guard !images.isEmpty else { throw CLIError("no image given") }
        if let out, images.count > 1, Self.isImageFile(out) {
            throw CLIError("--out \(out.path) names one file but \(images.count) images were given; pass a directory")
        }
    }

    func run() throws -> Int32 {
        let spec = try loadSpec(cfg)
        try report(spec, options: planOptions(strict: strict))
        let network = try Network(spec: spec, weightsFile: weights, options: planOptions(strict: strict))
        _ = try Detector(network: network, threads: threads)  // a network without a head is refused first
        let (labels, labelsFile) = try labelFiles.load(classes: DetectionDecoder.classCount(of: network.plan), cfg: cfg,
                                                       what: "classes")
        let detector = try Detector(network: network, labels: labels, labelsFile: labelsFile, threads: threads)
        var failures = 0
        for path in images {
            do {
                try detect(path, with: detector)
            } catch {
                FileHandle.standardError.write(Data("swift-darknet: \(path): \(error)\n".utf8))
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }

    private func detect(_ path: String, with detector: Detector) throws {
        let image = try Image(contentsOf: URL(fileURLWithPath: path))
        let start = DispatchTime.now()
        let detections = try detector.detect(image, options: options)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        if json {
            print(DetectionJSON.line(image: path, width: image.width, height: image.height, detections: detections))
        } else {
            print(String(format: "%@: Predicted in %.3f seconds.", path, seconds))
            for d in detections { print(String(format: "%@: %.0f%%", d.label, d.confidence * 100)) }
        }
        if let out {
            let destination = Self.isImageFile(out) ? out
                : out.appendingPathComponent(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".png")
            if !Self.isImageFile(out) {
                try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            }
            let classes = DetectionDecoder.classCount(of: detector.network.plan)
            try image.annotated(with: Self.annotations(detections), classCount: classes).write(to: destination)
        }
    }

    /// One annotation per box: Darknet joins the labels of a box found for several classes.
    static func annotations(_ detections: [Detection]) -> [BoxAnnotation] {
        var result: [BoxAnnotation] = []
        var previousBox: RelativeBox?
        for d in detections {
            if d.box == previousBox, var last = result.popLast() {
                last.label += ", " + d.label
                result.append(last)
            } else {
                result.append(BoxAnnotation(label: d.label, classIndex: d.classIndex,
                                            left: d.rect.left, top: d.rect.top, right: d.rect.right, bottom: d.rect.bottom))
            }
            previousBox = d.box
        }
        return result
    }

    static func isImageFile(_ url: URL) -> Bool {
        ["png", "jpg", "jpeg"].contains(url.pathExtension.lowercased())
    }
}

/// The `--json` line format, a contract: one object per image, detections in Darknet's order.
enum DetectionJSON {
    static func line(image: String, width: Int, height: Int, detections: [Detection]) -> String {
        let items = detections.map { d in
            String(format: #"{"class": %d, "label": %@, "prob": %.4f, "x": %d, "y": %d, "w": %d, "h": %d}"#,
                   d.classIndex, jsonStringLiteral(d.label), d.confidence, d.rect.left, d.rect.top, d.rect.width, d.rect.height)
        }
        return #"{"image": \#(jsonStringLiteral(image)), "width": \#(width), "height": \#(height), "detections": [\#(items.joined(separator: ", "))]}"#
    }
}
