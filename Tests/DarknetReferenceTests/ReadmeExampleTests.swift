import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// The README's usage example, compiled and run by the test build so it cannot rot.
final class ReadmeExampleTests: XCTestCase {
    func testReadmeUsageExample() async throws {
        let cfgURL = try TestPaths.require(TestPaths.tinyCfg)
        let weightsURL = try TestPaths.require(TestPaths.tinyWeights)
        let namesURL = try TestPaths.require(TestPaths.cocoNames)
        let photoURL = try TestPaths.require(TestPaths.sample("dog.jpg"))
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // begin README.md 1
        let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL)
        let image = try PlanarImage(contentsOf: photoURL)
        for d in try await detector.detect(image, threshold: 0.5) {
            print(d.label, d.confidence, d.rect)   // rect in original-image pixels
        }
        // end README.md 1

        XCTAssertEqual(printed.count, 5)
        XCTAssertTrue(printed[0].hasPrefix("dog 0.56"), printed[0])
    }

    /// The int8 section's example: calibrate, save, load the sidecar, detect.
    func testReadmeInt8Example() throws {
        let cfgURL = try TestPaths.require(TestPaths.tinyCfg)
        let weightsURL = try TestPaths.require(TestPaths.tinyWeights)
        let namesURL = try TestPaths.require(TestPaths.cocoNames)
        let calibrationFolderURL = try TestPaths.require(TestPaths.weights.appendingPathComponent("calibration"))
        let sidecarURL = try temporaryDirectory("readme-int8").appendingPathComponent("yolov3-tiny.int8.json")

        // begin README.md 8
        let float = try Network(cfg: cfgURL, weights: weightsURL)
        let calibration = try Int8Calibration(network: float, imagesIn: calibrationFolderURL)  // letterboxed as detect does
        try calibration.write(to: sidecarURL)                                  // once; later:
        let saved = try Int8Calibration(contentsOf: sidecarURL, for: float.spec)            // checked against the cfg
        let int8 = try Network(cfg: cfgURL, weights: weightsURL, options: PlanOptions(precision: .int8(saved)))  // and the weights
        let detector = try Detector(network: int8, labels: try Detector.readLabels(namesURL))
        // end README.md 8

        XCTAssertEqual(saved, calibration)
        let detections = try detector.detect(try PlanarImage(contentsOf: TestPaths.sample("dog.jpg")))
        XCTAssertEqual(Set(detections.map(\.label)), ["dog", "car", "truck", "bicycle"])
    }

    /// The "Live camera frames" example: frames of a panning photo handed over from a capture
    /// thread, tracked boxes and rates printed.
    func testReadmeLiveExample() async throws {
        let cfgURL = try TestPaths.require(TestPaths.tinyCfg)
        let weightsURL = try TestPaths.require(TestPaths.tinyWeights)
        let namesURL = try TestPaths.require(TestPaths.cocoNames)
        let photo = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let frames = try (0..<12).map { i in try packedBGRA(photo, x: 4 * i, width: 640, height: 480) }
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // begin README.md 4, Sources/Darknet/Darknet.docc/LiveFrames.md 1
        let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL)
        let tracking = TrackerOptions(smoothing: .movingAverage(frames: 5))
        let pipeline = DetectionPipeline(detector: detector, policy: .latest, tracking: tracking)
        // In the capture callback (AVCaptureVideoDataOutput, V4L2, ...): hand the frame over, never wait.
        @Sendable func didCapture(_ bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int, time: Duration) throws {
            let pixels = try PixelBuffer(format: .bgra, width: width, height: height, bytes: bytes, bytesPerRow: bytesPerRow)
            pipeline.offer(Frame(pixels: pixels, presentationTime: time, captureInstant: .now))
        }
        // pause: a capture thread sends 12 frames 30 ms apart, moving 4 px each.
        let camera = Thread {
            for (i, bytes) in frames.enumerated() {
                try? didCapture(bytes, width: 640, height: 480, bytesPerRow: 640 * 4, time: .milliseconds(30 * i))
                usleep(30_000)
            }
            pipeline.finish()
        }
        camera.start()
        // resume
        for try await result in pipeline.results {
            for box in result.tracks { print(box.trackID, box.label, box.rect) }
            print(result.statistics.processedFPS, "fps,", result.statistics.captureToResult, "behind the camera")
        }
        // end README.md 4, Sources/Darknet/Darknet.docc/LiveFrames.md 1

        let rates = printed.filter { $0.hasSuffix("behind the camera") }
        XCTAssertFalse(rates.isEmpty)
        let dogs = printed.filter { $0.contains(" dog ") }
        XCTAssertFalse(dogs.isEmpty, "\(printed)")
        XCTAssertEqual(Set(dogs.map { $0.split(separator: " ")[0] }).count, 1, "one track ID for the dog: \(dogs)")
    }
}

/// The `width x height` window at column `x` of `image` as tightly packed BGRA bytes.
private func packedBGRA(_ image: PlanarImage, x: Int, width: Int, height: Int) throws -> [UInt8] {
    let window = try image.pixelBuffer(format: .bgra).cropped(to: PixelRegion(x: x, y: 0, width: width, height: height))
    return try PlanarImage(pixels: window).pixelBuffer(format: .bgra).withUnsafePlane(0) { raw, _ in Array(raw.prefix(width * height * 4)) }
}
