import Darknet
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// `swift-darknet video` end to end on small generated clips (320x240, debug build).
final class VideoCommandTests: XCTestCase {
    func testBadInputIsExitStatusOneNamingTheInput() throws {
        let directory = try temporaryDirectory("video")
        let random = directory.appendingPathComponent("random.mp4")
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: random)
        let empty = directory.appendingPathComponent("empty.mp4")
        try Data().write(to: empty)
        let url = "tcp://127.0.0.1:\(VideoTestSupport.closedPort())"
        let model = try TestPaths.tinyModelArguments()
        for input in [random.path, empty.path, url, directory.appendingPathComponent("missing.mkv").path] {
            let start = Date()
            let result = try SwiftDarknetTool.run(["video"] + model + ["--json", "--input-timeout", "3", input], timeout: 30)
            XCTAssertEqual(result.status, 1, input)
            XCTAssertTrue(result.stderr.contains(input), result.stderr)
            XCTAssertEqual(result.stdout, "", input)
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, input)
        }
    }

    func testTruncatedFileReportsTheFramesBeforeTheDamageThenFails() throws {
        let truncated = try VideoTestSupport.truncatedClip(in: temporaryDirectory("video"))
        let result = try SwiftDarknetTool.run(["video"] + (try TestPaths.tinyModelArguments()) + ["--json", truncated.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("\(truncated.path): read failed after"), result.stderr)
        let frames = try result.lines.map { try jsonObject($0)["frame"] as? Int }
        XCTAssertGreaterThan(frames.count, 3)
        XCTAssertEqual(frames, Array(0..<frames.count))
    }

    func testStrideDurationClassesAndMaxDetections() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("clip.mp4"), frames: 30, codec: VideoTestSupport.h264)
        let model = try TestPaths.tinyModelArguments()
        let strided = try SwiftDarknetTool.run(["video"] + model + ["--json", "--stride", "4", "--duration", "0.5", "--thresh", "0.1", clip.path])
        XCTAssertEqual(strided.status, 0, strided.stderr)
        let lines = try strided.jsonLines()
        XCTAssertEqual(lines.map { $0["frame"] as? Int }, [0, 4, 8, 12], "frames before 0.5 s, every 4th")
        XCTAssertTrue(strided.stderr.contains("frames read 15, processed 4, dropped 0, skipped by --stride 11"), strided.stderr)
        XCTAssertTrue(strided.stderr.contains("latency p50"), strided.stderr)
        let all = lines.flatMap { $0["detections"] as? [[String: Any]] ?? [] }
        XCTAssertTrue(Set(all.compactMap { $0["class"] as? Int }).count > 1, "a low threshold finds more than the dog")

        let shaped = try SwiftDarknetTool.run(["video"] + model + ["--json", "--stride", "4", "--duration", "0.5", "--thresh", "0.1",
                                                          "--classes", "dog,1", "--max-det", "1", clip.path])
        XCTAssertEqual(shaped.status, 0, shaped.stderr)
        for line in try shaped.jsonLines() {
            let detections = line["detections"] as? [[String: Any]] ?? []
            XCTAssertLessThanOrEqual(detections.count, 1)
            XCTAssertTrue(detections.allSatisfy { [16, 1].contains($0["class"] as? Int ?? -1) })
        }
        let unknown = try SwiftDarknetTool.run(["video"] + model + ["--classes", "unicorn", clip.path])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("unicorn"))
    }

    func testTrackAndSmoothAddTrackIDsAndSmoothedBoxes() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("clip.mp4"), frames: 10, codec: VideoTestSupport.h264)
        let model = try TestPaths.tinyModelArguments()
        func dogs(_ extra: [String]) throws -> [[String: Any]] {
            let result = try SwiftDarknetTool.run(["video"] + model + ["--json"] + extra + [clip.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try result.jsonLines().compactMap { line in
                (line["detections"] as? [[String: Any]])?.first { $0["label"] as? String == "dog" }
            }
        }
        let plain = try dogs([]), tracked = try dogs(["--track"]), smoothed = try dogs(["--smooth", "5"])
        XCTAssertGreaterThan(plain.count, 4, "the dog is found in most frames")
        XCTAssertEqual(tracked.count, plain.count)
        XCTAssertEqual(smoothed.count, plain.count)
        XCTAssertNil(plain.first?["track"])
        let ids = Set(tracked.compactMap { $0["track"] as? Int })
        XCTAssertEqual(ids.count, 1, "the dog keeps one track ID over the pan")
        for key in ["x", "y", "w", "h", "prob"] {
            XCTAssertEqual(tracked.map { "\($0[key]!)" }, plain.map { "\($0[key]!)" }, "--track alone leaves \(key) as detect has it")
        }
        XCTAssertEqual(smoothed.map { $0["track"] as? Int }, tracked.map { $0["track"] as? Int })
        let moved = zip(smoothed, tracked).contains { a, b in ["x", "y", "w", "h"].contains { a[$0] as? Int != b[$0] as? Int } }
        XCTAssertTrue(moved, "--smooth 5 averages the boxes of a moving dog")
        XCTAssertEqual(smoothed.first.map { "\($0["x"]!)" }, tracked.first.map { "\($0["x"]!)" }, "a new track's first box is its own")
    }

    func testOutWritesAnH264VideoOfTheSourceSizeAndRate() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("clip.mp4"), frames: 12, codec: VideoTestSupport.h264)
        let out = directory.appendingPathComponent("annotated.mp4")
        let result = try SwiftDarknetTool.run(["video"] + (try TestPaths.tinyModelArguments()) + ["--out", out.path, clip.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 12, "one text line per frame")
        let reader = try VideoReader(source: out.path)
        XCTAssertEqual(reader.codecName, "h264")
        XCTAssertEqual(reader.width, 320)
        XCTAssertEqual(reader.height, 240)
        XCTAssertEqual(reader.frameRate ?? 0, 30, accuracy: 0.01)
        var timestamps: [Double] = []
        while let frame = try reader.nextFrame() { timestamps.append(frame.presentationTime.inSeconds) }
        XCTAssertEqual(timestamps.count, 12)
        XCTAssertEqual(timestamps.last ?? 0, 11.0 / 30, accuracy: 1e-3)
    }

    /// A clip tagged "turn 90°" is detected and written upright (240x320); `--no-autorotate`
    /// keeps its stored 320x240 frames.
    func testAPortraitClipIsWrittenUprightUnlessAskedNotTo() throws {
        let directory = try temporaryDirectory("video")
        let stored = try VideoTestSupport.makeClip(directory.appendingPathComponent("stored.mp4"), frames: 3, codec: VideoTestSupport.h264)
        let clip = directory.appendingPathComponent("portrait.mp4")
        try FFmpeg.run(["-i", stored.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", clip.path])
        for (flags, size) in [([String](), [240, 320]), (["--no-autorotate"], [320, 240])] {
            let out = directory.appendingPathComponent("annotated\(flags.count).mp4")
            let result = try SwiftDarknetTool.run(["video"] + (try TestPaths.tinyModelArguments()) + flags + ["--out", out.path, clip.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            let written = try VideoReader(source: out.path)
            XCTAssertEqual([written.width, written.height], size, "\(flags)")
            XCTAssertEqual(written.rotation, 0, "the annotated video is stored upright")
        }
    }

    func testOutWithAFramePatternWritesNumberedImages() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("clip.avi"), frames: 9, codec: VideoTestSupport.mjpeg)
        let pattern = directory.appendingPathComponent("out/f%03d.png").path
        let result = try SwiftDarknetTool.run(["video"] + (try TestPaths.tinyModelArguments()) + ["--out", pattern, "--stride", "3", clip.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).sorted()
        XCTAssertEqual(files, ["f000.png", "f003.png", "f006.png"])
    }

    func testMJPEGWriterMakesAnAVIThatDecodes() throws {
        let directory = try temporaryDirectory("video")
        let writer = try VideoWriter(path: directory.appendingPathComponent("out.mp4").path, width: 64, height: 48,
                                     frameRate: 25, codec: .mjpeg)
        XCTAssertEqual(writer.destination, directory.appendingPathComponent("out.avi").path)
        for i in 0..<5 {
            let image = try PlanarImage(width: 64, height: 48, channels: 3, filledWith: Float(i) / 5)
            try writer.write(image, presentationTime: .seconds(Double(i) / 25))
        }
        try writer.finish()
        let reader = try VideoReader(source: writer.destination)
        XCTAssertEqual(reader.codecName, "mjpeg")
        var count = 0
        while try reader.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, 5)
    }

    /// H.264 in 4:2:0 takes even sizes only: a 65x49 picture is written as its first 64 columns
    /// and 48 rows (a crop, not a scale: the last written column is the source's column 63).
    /// libx264 refused the odd size with "Generic error in an external library" before.
    func testOddSizedFramesAreCroppedToTheEvenSizeInH264() throws {
        let directory = try temporaryDirectory("video")
        let writer = try VideoWriter(path: directory.appendingPathComponent("odd.mp4").path, width: 65, height: 49, frameRate: 25)
        XCTAssertEqual([writer.encodedWidth, writer.encodedHeight], [64, 48])
        // Columns 0...63 dark, column 64 bright: a scale would blend the bright column into the last one.
        var pixels = [Float](repeating: 0.2, count: 3 * 65 * 49)
        for channel in 0..<3 {
            for row in 0..<49 { pixels[(channel * 49 + row) * 65 + 64] = 1 }
        }
        let image = try PlanarImage(width: 65, height: 49, channels: 3, pixels: pixels)
        for i in 0..<3 { try writer.write(image, presentationTime: .seconds(Double(i) / 25)) }
        try writer.finish()
        let reader = try VideoReader(source: writer.destination)
        XCTAssertEqual([reader.width, reader.height], [64, 48])
        let frame = try XCTUnwrap(try reader.nextFrame())
        let decoded = PlanarImage(pixels: frame.pixels)
        let lastColumn = (0..<48).map { decoded.pixels[$0 * 64 + 63] }
        XCTAssertLessThan(lastColumn.max() ?? 1, 0.3, "the last written column is a dark source column")
    }

    func testInterruptFinishesTheOutputFile() throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("clip.mp4"), frames: 150, codec: VideoTestSupport.h264)
        let out = directory.appendingPathComponent("annotated.mp4")
        let child = try SwiftDarknetTool.start(["video"] + (try TestPaths.tinyModelArguments()) + ["--json", "--out", out.path, clip.path])
        _ = child.waitForLines(timeout: 120) { $0.count >= 3 ? true : nil }
        XCTAssertTrue(child.isRunning, "finished before it could be interrupted")
        child.signal(SIGINT)
        let result = child.wait(timeout: 30)
        XCTAssertEqual(result.reason, .exit)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("frames read"), result.stderr)
        let processed = result.lines.count
        XCTAssertLessThan(processed, 150)
        let reader = try VideoReader(source: out.path)
        var count = 0
        while try reader.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, processed, "every processed frame is in the finished file")
    }
}
