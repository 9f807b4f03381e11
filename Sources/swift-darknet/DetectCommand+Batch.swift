import BatchDetection
import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `detect` over a batch: images prepared ahead of the forward pass, results reported in input
/// order to stdout, `--out`, `--out-json` and `--save-labels`.
extension DetectCommand {
    /// Images decoded and letterboxed ahead of the current forward pass.
    static let lookAhead = 1

    /// Runs `detector` on every path; returns the exit status (1 if any image failed).
    func runBatch(_ paths: [String], with detector: Detector) throws -> Int32 {
        let outJSON = try batch.outJSON.map { path throws in try DarknetJSONFile(path: path) }
        var failures = 0
        try BatchDetector(detector: detector, options: options, lookAhead: Self.lookAhead, jobs: batch.jobs).run(paths) { item in
            do {
                switch item.result {
                case .success(let found): try report(found, path: item.path, detector: detector)
                case .failure(let error): throw error
                }
            } catch {
                printError(inputFailureLine(item.path, error))
                if json { print(DetectionJSON.errorLine(image: item.path, error: String(describing: error))) }
                failures += 1
            }
            // The -out file gets every image, failed or not, so frame_id stays the position.
            try outJSON?.append(item)
        }
        try outJSON?.close()
        return failures == 0 ? 0 : 1
    }

    /// Prints one image's detections and writes its annotated image and label file.
    private func report(_ found: BatchDetections, path: String, detector: Detector) throws {
        let image = found.image, detections = found.detections
        if json {
            print(DetectionJSON.line(image: path, width: image.width, height: image.height, detections: detections))
        } else {
            print(String(format: "%@: Predicted in %.3f seconds.", path, found.seconds))
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
        if batch.saveLabels { try YOLOLabels.write(detections, forImage: path) }
    }
}

extension DetectionJSON {
    /// The `--json` line of an image that failed: `{"image": ..., "error": "..."}`.
    static func errorLine(image: String, error: String) -> String {
        #"{"image": \#(jsonStringLiteral(image)), "error": \#(jsonStringLiteral(error))}"#
    }
}
