import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// A `channels=1` detector (YOLOv3-tiny's cfg with one input channel at 224x224, seeded random
/// weights: `GreyTinyYOLO`): a camera's YUV frames go in as their luma plane, so an NV12 frame
/// detects exactly as a gray buffer of its Y plane, through `detect` and a `DetectionPipeline`;
/// colour frames detect as the photo read in grey; `swift-darknet detect` reads a colour photo
/// for it as AlexeyAB's darknet does (`PlanarImage(contentsOf: channels: 1)`, OpenCV's greyscale
/// read, checked in `GreyscaleImageTests`).
final class GreyscaleNetworkTests: XCTestCase {
    func testYUVFramesGoStraightIntoAOneChannelDetector() async throws {
        let detector = try GreyTinyYOLO.detector()
        XCTAssertEqual(detector.network.inputShape.channels, 1)
        XCTAssertEqual(detector.network.inputShape.width, 224)

        // The photo's green plane as the luma of a 768x576 frame, random chroma beside it.
        let photo = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let (width, height) = (photo.width, photo.height)
        let luma = photo.pixels[(width * height)..<(2 * width * height)].map { UInt8(($0 * 255).rounded()) }
        var random = TestRandom(seed: 7)
        let chroma = (0..<(width * height / 2)).map { _ in UInt8(random.next(below: 256)) }
        let gray = try PixelBuffer(format: .gray, width: width, height: height, bytes: luma)
        let nv12 = try PixelBuffer(format: .nv12(.video), width: width, height: height,
                                   planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: chroma, bytesPerRow: width)])
        let options = DetectionOptions(threshold: 0.05)
        let expected = try await detector.detect(gray, options: options)
        XCTAssertFalse(expected.isEmpty, "random weights at 0.05 find something to compare")
        let fromNV12 = try await detector.detect(nv12, options: options)
        XCTAssertEqual(fromNV12, expected)

        let pipeline = DetectionPipeline(detector: detector, policy: .every, options: options)
        for index in 0..<2 { try pipeline.submit(Frame(pixels: nv12, presentationTime: .milliseconds(40 * index))) }
        pipeline.finish()
        var results: [[Detection]] = []
        for try await result in pipeline.results { results.append(result.detections) }
        XCTAssertEqual(results, [expected, expected])

    }

    /// A colour frame (BGRA, RGB) of a photo goes into a one-channel detector converted as the
    /// photo is read for it: the frame's grey plane is `PlanarImage(contentsOf:channels: 1)`'s,
    /// byte for byte, on a PPM of the same pixels (`cvtColor`'s weights, as `imread` converts it),
    /// and the detections through `detect` and a `DetectionPipeline` equal the photo's.
    func testColourFramesDetectAsThePhotoReadInGrey() async throws {
        let detector = try GreyTinyYOLO.detector()
        let colour = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let area = colour.width * colour.height
        var bytes = Array("P6\n\(colour.width) \(colour.height)\n255\n".utf8)
        for i in 0..<area {
            for c in 0..<3 { bytes.append(UInt8((colour.pixels[c * area + i] * 255).rounded())) }
        }
        let ppm = try temporaryDirectory("grey-frames").appendingPathComponent("dog.ppm")
        try Data(bytes).write(to: ppm)
        let photo = try PlanarImage(contentsOf: ppm, channels: 1)
        XCTAssertEqual(photo.channels, 1)

        let options = DetectionOptions(threshold: 0.05)
        let expected = try await detector.detect(photo, options: options)
        XCTAssertFalse(expected.isEmpty, "random weights at 0.05 find something to compare")
        for format in [PixelFormat.bgra, .rgb] {
            let frame = try colour.pixelBuffer(format: format)
            let plane = try frame.letterboxed(width: colour.width, height: colour.height, channels: 1).image
            XCTAssertEqual(plane.pixels, photo.pixels, "\(format): not the grey the photo path reads")
            let found = try await detector.detect(frame, options: options)
            XCTAssertEqual(found, expected, "\(format)")
        }

        let bgra = try colour.pixelBuffer(format: .bgra)
        let pipeline = DetectionPipeline(detector: detector, policy: .every, options: options)
        for index in 0..<2 { try pipeline.submit(Frame(pixels: bgra, presentationTime: .milliseconds(40 * index))) }
        pipeline.finish()
        var results: [[Detection]] = []
        for try await result in pipeline.results { results.append(result.detections) }
        XCTAssertEqual(results, [expected, expected])
    }

    /// `swift-darknet detect` on a colour JPEG with a grey network: the detections of the grey
    /// read, where it used to refuse the photo (`channelMismatch`).
    func testDetectCommandReadsAColourPhotoInGrey() throws {
        let (cfg, weights) = try GreyTinyYOLO.write(into: try temporaryDirectory("grey-detect"))
        let dog = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let detector = try Detector(network: try Network(cfg: cfg, weights: weights))
        let expected = try detector.detect(try PlanarImage(contentsOf: dog, channels: 1), options: DetectionOptions(threshold: 0.05))
        XCTAssertFalse(expected.isEmpty)

        let run = try SwiftDarknetTool.run(["detect", "--cfg", cfg.path, "--weights", weights.path, "--thresh", "0.05",
                                            "--json", dog.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let line = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        XCTAssertEqual(line["width"] as? Int, 768)
        let found = try XCTUnwrap(line["detections"] as? [[String: Any]])
        XCTAssertEqual(found.compactMap { $0["class"] as? Int }, expected.map(\.classIndex))
        XCTAssertEqual(found.compactMap { $0["prob"] as? Double }, expected.map { Double(String(format: "%.4f", $0.confidence))! })
    }
}
