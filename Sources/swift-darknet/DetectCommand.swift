import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `swift-darknet detect`: Darknet's detections for one or more images.
struct DetectCommand: Command {
    static let name = "detect"
    static let abstract = "detect objects in images (text, JSON lines, annotated images)"
    static let operands = "IMAGE_OR_DIR..."
    static let description = """
        default output: "label: NN%" lines per image, as Darknet prints them
        \(ImageSourceFlags.operandHelp)
        \(DetectBatchOptions.failureHelp)
        """
    static let detectionFlags = DetectionFlags()
    static let optionGroups = [
        ModelOptions.options([LabelFiles.option]),
        OptionGroup("detection", detectionFlags.options + [
            ThreadsFlag.option("threads for each forward pass (results do not depend on it); with --tiles, tiles run at once",
                               sharedBy: "--jobs"),
        ]),
        OptionGroup("output", [
            .flag("json", #"one line per image: {"image", "width", "height", "detections": [...]}"#),
            .value("out", "DIR_OR_FILE", "annotated image: a .png/.jpg file (one image) or a directory"),
        ]),
        DetectBatchOptions.options,
        TilingFlags.options,
        PlanFlags.options,
        PrecisionFlags.options,
    ]

    let detectorFlags: DetectorFlags
    let options: DetectionOptions
    let json: Bool
    let out: URL?
    let images: [String]
    let threads: Int
    let batch: DetectBatchOptions

    init(arguments: inout Arguments) throws {
        detectorFlags = try DetectorFlags(arguments: &arguments, darknetDefault: .detect)
        var options = try Self.detectionFlags.read(&arguments)
        options.tiling = try TilingFlags(arguments: &arguments).tiling
        self.options = options
        json = arguments.flag("json")
        out = arguments.string("out").map { URL(fileURLWithPath: $0) }
        if let out, let format = ImageFormat(pathExtension: out.pathExtension), !format.isWritable {
            throw CLIError("--out \(out.path): annotated images are written as .png or .jpg, not .\(out.pathExtension)")
        }
        images = arguments.positionals
        batch = try DetectBatchOptions(arguments: &arguments)
        threads = try ThreadsFlag.read(&arguments, sharing: batch.jobs)
        try batch.sources.requireImages(images)
        if batch.sources.prompts(images), batch.outJSON != nil {
            throw CLIError("--out-json needs IMAGE or --list: it is not written for paths typed at Darknet's prompt")
        }
    }

    func run() throws -> Int32 {
        if batch.sources.prompts(images) {
            let detector = try detectorFlags.loadDetector(try detectorFlags.model.resolve(), letterbox: options.letterbox,
                                                          threads: threads)
            var status: Int32 = 0
            for path in ImagePathPrompt(toStandardError: json) { status = max(status, try runBatch([path], with: detector)) }
            return status
        }
        let paths = try batch.sources.imagePaths(images)
        if let out, paths.count > 1, Self.isImageFile(out) {
            throw CLIError("--out \(out.path) names one file but \(paths.count) images were given; pass a directory")
        }
        let detector = try detectorFlags.loadDetector(try detectorFlags.model.resolve(), letterbox: options.letterbox, threads: threads)
        return try runBatch(paths, with: detector)
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

    /// Whether `--out` names an image file to write (a format `PlanarImage.write(to:)` writes).
    static func isImageFile(_ url: URL) -> Bool {
        ImageFormat(pathExtension: url.pathExtension)?.isWritable == true
    }
}

/// The `--json` line format, a contract: one object per image, detections in Darknet's order.
enum DetectionJSON {
    static func line(image: String, width: Int, height: Int, detections: [Detection]) -> String {
        #"{"image": \#(jsonStringLiteral(image)), "width": \#(width), "height": \#(height), "detections": \#(array(detections))}"#
    }

    /// The `"detections"` array: one object per detection, `extra` appended to each object's
    /// fields (e.g. `"track": 3`), in Darknet's order.
    /// `rects`, if given, replaces each detection's `rect` (a tracker's smoothed boxes).
    static func array(_ detections: [Detection], rects: [PixelRect]? = nil, extra: [String]? = nil) -> String {
        let items = detections.enumerated().map { i, d in
            let rect = rects?[i] ?? d.rect
            return String(format: #"{"class": %d, "label": %@, "prob": %.4f, "x": %d, "y": %d, "w": %d, "h": %d"#,
                          d.classIndex, jsonStringLiteral(d.label), d.confidence, rect.left, rect.top, rect.width, rect.height)
                + (extra.map { ", " + $0[i] } ?? "") + "}"
        }
        return "[" + items.joined(separator: ", ") + "]"
    }
}
