import Darknet
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// `swift-darknet video` with a greyscale (`channels=1`) network: every frame goes in, an H.264
/// clip's as its Y plane and an MJPEG clip's (`yuvj422p`, which the core reads as libswscale's
/// `rgb24`) converted with the photos' luma, and each frame's detections are the library's on
/// the same decoded frame. (The conversion itself: `PixelLetterboxTests` and
/// `GreyscaleNetworkTests`.)
final class GreyscaleVideoTests: XCTestCase {
    func testVideoOfAGreyNetworkDetectsEachFrameAsTheLibrary() throws {
        let directory = try temporaryDirectory("grey-video")
        let (cfg, weights) = try GreyTinyYOLO.write(into: directory)
        let detector = try Detector(network: try Network(cfg: cfg, weights: weights))
        XCTAssertEqual(detector.network.inputShape.channels, 1)
        let options = DetectionOptions(threshold: 0.05)

        for (name, codec) in [("clip.mp4", VideoTestSupport.h264), ("clip.avi", VideoTestSupport.mjpeg)] {
            let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent(name), frames: 4, codec: codec)
            var expected: [[Detection]] = []
            let reader = try VideoReader(source: clip.path)
            while let frame = try reader.nextFrame() { expected.append(try detector.detect(frame.pixels, options: options)) }
            XCTAssertEqual(expected.count, 4, name)
            XCTAssertFalse(expected.joined().isEmpty, "\(name): random weights at 0.05 find something to compare")

            let run = try SwiftDarknetTool.run(["video", "--cfg", cfg.path, "--weights", weights.path, "--thresh", "0.05",
                                                "--json", clip.path])
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            let lines = try run.jsonLines()
            XCTAssertEqual(lines.count, expected.count, name)
            for (line, detections) in zip(lines, expected) {
                let found = line["detections"] as? [[String: Any]] ?? []
                XCTAssertEqual(found.compactMap { $0["class"] as? Int }, detections.map(\.classIndex), name)
                XCTAssertEqual(found.compactMap { $0["prob"] as? Double }, detections.map { Double(String(format: "%.4f", $0.confidence))! },
                               name)
            }
        }
    }
}
