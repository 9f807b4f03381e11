import Darknet
import DarknetImage
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// `swift-darknet classify-video` (Darknet's `classifier demo`): Darknet's reference classifier
/// (`darknet.cfg`, random weights) on frames of a file and of a device.
final class ClassifyVideoCommandTests: XCTestCase {
    private func model() throws -> [String] {
        let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
        return ["--cfg", try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")).path,
                "--weights", try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")).path,
                "--names", try TestPaths.require(TestPaths.sample("imagenet.shortnames.list")).path]
    }

    /// Every frame of a lossless video, and the picture a device gives, classify as `classify`
    /// classifies the same pixels in a PNG: the same classes, the same probabilities.
    func testFramesClassifyAsTheSamePixelsInAnImage() throws {
        let directory = try temporaryDirectory("classify-video")
        let photo = try TestPaths.require(TestPaths.sample("eagle.jpg"))
        let png = directory.appendingPathComponent("eagle.png")
        try FFmpeg.run(["-i", photo.path, "-pix_fmt", "rgb24", png.path])
        let clip = directory.appendingPathComponent("eagle.mkv")
        try FFmpeg.run(["-loop", "1", "-framerate", "25", "-i", png.path, "-frames:v", "3", "-c:v", "png", clip.path])
        let model = try model()
        let image = try SwiftDarknetTool.run(["classify"] + model + ["--json", "--top", "3", png.path])
        XCTAssertEqual(image.status, 0, image.stderr)
        let expected = try XCTUnwrap(try image.jsonLines().first?["predictions"] as? [[String: Any]])
        XCTAssertEqual(expected.count, 3)

        let file = try SwiftDarknetTool.run(["classify-video"] + model + ["--json", "--top", "3", clip.path])
        XCTAssertEqual(file.status, 0, file.stderr)
        let frames = try file.jsonLines()
        XCTAssertEqual(frames.compactMap { $0["frame"] as? Int }, [0, 1, 2], "a file: every frame")
        XCTAssertEqual(frames.compactMap { $0["time"] as? Double }, [0, 0.04, 0.08])
        for frame in frames {
            XCTAssertEqual(try XCTUnwrap(frame["predictions"] as? [[String: Any]]) as NSArray, expected as NSArray)
        }
        XCTAssertTrue(file.stderr.contains("frames read 3, processed 3, dropped 0"), file.stderr)

        let device = try SwiftDarknetTool.run(["classify-video"] + model + ["--top", "3", "--input-format", "lavfi",
                                                                            "movie=\(png.path),format=rgb24"])
        XCTAssertEqual(device.status, 0, device.stderr)
        let text = expected.map { p in String(format: "%@: %.2f%%", p["label"] as! String, (p["prob"] as! Double) * 100) }
        XCTAssertEqual(device.stdout, "frame 0 at 0.000 s: " + text.joined(separator: ", ") + "\n")

        let drawn = directory.appendingPathComponent("drawn")
        let annotated = try SwiftDarknetTool.run(["classify-video"] + model + ["--top", "3", "--out", drawn.path + "/f%02d.png",
                                                                               clip.path])
        XCTAssertEqual(annotated.status, 0, annotated.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: drawn.path).sorted(), ["f00.png", "f01.png", "f02.png"])
        let source = try PlanarImage(contentsOf: png)
        let first = try PlanarImage(contentsOf: drawn.appendingPathComponent("f00.png"))
        XCTAssertEqual(first, source.annotated(with: try expected.map { p in
            Classification(classIndex: try XCTUnwrap(p["class"] as? Int), label: try XCTUnwrap(p["label"] as? String),
                           probability: Float(try XCTUnwrap(p["prob"] as? Double)))
        }), "the frame with the demo's labels drawn (the probabilities to the tenth of a percent JSON keeps)")

        let strided = try SwiftDarknetTool.run(["classify-video"] + model + ["--json", "--stride", "2", clip.path])
        XCTAssertEqual(strided.status, 0, strided.stderr)
        XCTAssertEqual(try strided.jsonLines().compactMap { $0["frame"] as? Int }, [0, 2])
        XCTAssertTrue(strided.stderr.contains("frames read 3, processed 2, dropped 0, skipped by --stride 1"), strided.stderr)
    }

    /// A device faster than the network: the newest frame is classified, the others dropped
    /// and counted, so the lag does not grow.
    func testALiveSourceDropsStaleFrames() throws {
        try VideoTestSupport.assertFastDeviceDropsStaleFrames("classify-video", model: try model())
    }

    /// Ctrl-C on a source that never ends (a device): reading stops, the frames taken are
    /// reported, the annotated video is finished with every classified frame in it, exit 0.
    func testInterruptEndsALiveRunAndFinishesTheOutput() throws {
        let directory = try temporaryDirectory("classify-video")
        let out = directory.appendingPathComponent("annotated.mp4")
        let child = try SwiftDarknetTool.start(["classify-video"] + (try model()) + [
            "--json", "--out", out.path, "--input-format", "lavfi", "testsrc2=size=160x120:rate=25,realtime"])
        _ = child.waitForLines(timeout: 120) { $0.count >= 3 ? true : nil }
        XCTAssertTrue(child.isRunning, "a device does not end by itself")
        child.signal(SIGINT)
        let result = child.wait(timeout: 30)
        XCTAssertEqual(result.reason, .exit)
        XCTAssertEqual(result.status, 0, result.stderr)
        let processed = try XCTUnwrap(LiveStreamTests.numbers(in: result.stderr, after: ["processed "]), result.stderr)[0]
        XCTAssertEqual(result.lines.count, Int(processed))
        let reader = try VideoReader(source: out.path)
        var count = 0
        while try reader.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, result.lines.count, "every classified frame is in the finished file")
    }

    /// A camera that is not there, and a file that is not one, fail before the network loads,
    /// naming the input; nothing is printed on stdout.
    func testBadInputsAreExitStatusOne() throws {
        let directory = try temporaryDirectory("classify-video")
        let text = directory.appendingPathComponent("notes.mp4")
        try Data("not a video".utf8).write(to: text)
        for (input, message) in [(["--camera", "97"], "/dev/video97: cannot open as video: No such file or directory (no camera there)"),
                                 ([text.path], "\(text.path): cannot open as video")] {
            let result = try SwiftDarknetTool.run(["classify-video"] + (try model()) + input)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
    }
}
