import Darknet
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// Capture devices through libavdevice. This machine has no camera, so the device is
/// libavdevice's `lavfi` input (frames from an FFmpeg filter graph, in real time with its
/// `realtime` filter); a V4L2 camera takes the same path with `v4l2` as its input format.
final class CaptureDeviceTests: XCTestCase {
    /// Frames of a device input are the frames the `ffmpeg` command reads from it, byte for
    /// byte, in the format the graph gives (I420 straight from the device, RGB), with its times.
    func testDeviceFramesEqualTheFFmpegCommands() throws {
        let directory = try temporaryDirectory("device")
        for (format, planes) in [("yuv420p", 3), ("rgb24", 1)] {
            let graph = "testsrc2=size=64x48:rate=25,format=\(format)"
            let reader = try VideoReader(source: graph, options: VideoReaderOptions(inputFormat: "lavfi"))
            XCTAssertEqual(reader.kind, .device)
            XCTAssertEqual([reader.width, reader.height], [64, 48])
            XCTAssertNil(reader.estimatedFrameCount, "a device has no length")
            let frames = try (0..<3).map { _ in try XCTUnwrap(try reader.nextFrame()) }
            XCTAssertEqual(frames.map(\.index), [0, 1, 2])
            XCTAssertEqual(frames.map(\.presentationTime), [.zero, .milliseconds(40), .milliseconds(80)])

            let raw = directory.appendingPathComponent("\(format).raw")
            try FFmpeg.run(["-f", "lavfi", "-i", graph, "-frames:v", "3", "-f", "rawvideo", "-pix_fmt", format, raw.path])
            let expected = [UInt8](try Data(contentsOf: raw))
            let read = frames.flatMap { VideoReaderTests.planes($0.pixels).joined() }
            XCTAssertEqual(VideoReaderTests.planes(frames[0].pixels).count, planes, format)
            XCTAssertNil(VideoReaderTests.firstDifference(read, expected), "\(format): the first byte that differs from ffmpeg's")
        }
    }

    /// `swift-darknet` does not load libavdevice (and the ~80 libraries behind it) when it
    /// starts; a device input loads it in the process that opens one.
    func testLibavdeviceIsLoadedWithTheFirstDeviceNotAtStartUp() throws {
        let dynamic = try ChildProcess.run("/usr/bin/readelf", ["-d", try SwiftDarknetTool.require().path], timeout: 60)
        XCTAssertEqual(dynamic.status, 0, dynamic.stderr)
        XCTAssertTrue(dynamic.stdout.contains("[libavformat.so."), "readelf lists the libraries needed: \(dynamic.stdout)")
        XCTAssertFalse(dynamic.stdout.contains("[libavdevice.so."), "swift-darknet needs libavdevice at start-up: \(dynamic.stdout)")
        let reader = try VideoReader(source: "testsrc2=size=64x48:rate=25", options: VideoReaderOptions(inputFormat: "lavfi"))
        XCTAssertEqual(reader.kind, .device)
        let maps = String(decoding: try FileHandle(forReadingAtPath: "/proc/self/maps")?.readToEnd() ?? Data(), as: UTF8.self)
        XCTAssertTrue(maps.contains("/libavformat.so."), "the process's mappings list its libraries")
        XCTAssertTrue(maps.contains("/libavdevice.so."), "libavdevice is loaded once a device is opened")
    }

    /// A camera path is a device read with V4L2, a missing one an error that says so, and an
    /// input or option FFmpeg does not have is named instead of ignored.
    func testDeviceErrorsNameWhatIsMissing() throws {
        XCTAssertEqual(VideoSourceKind("/dev/video0"), .device)
        XCTAssertEqual(VideoSourceKind.cameraPath(2), "/dev/video2")
        XCTAssertEqual(VideoSourceKind("testsrc2", inputFormat: "lavfi"), .device)
        XCTAssertEqual(VideoSourceKind("clip.raw", inputFormat: "h264"), .file, "a demuxer is not a device")
        XCTAssertTrue(VideoSourceKind.device.isLive && VideoSourceKind.network.isLive && !VideoSourceKind.file.isLive)

        let cases: [(String, VideoReaderOptions, String)] = [
            ("/dev/video97", VideoReaderOptions(), "/dev/video97: cannot open as video: No such file or directory (no camera there)"),
            ("testsrc2", VideoReaderOptions(inputFormat: "nosuch"),
             "testsrc2: cannot open as video: this FFmpeg has no input format 'nosuch' (`ffmpeg -formats` lists them)"),
            ("testsrc2", VideoReaderOptions(inputFormat: "lavfi", inputOptions: ["video_size": "640x480", "nosuch": "1"]),
             "testsrc2: cannot open as video: lavfi has no option 'nosuch', 'video_size'"),
            ("testsrc2", VideoReaderOptions(inputFormat: ""),
             "testsrc2: cannot open as video: 'VideoReaderOptions.inputFormat': invalid value \"\", expected a format name such as v4l2, or nil"),
        ]
        for (source, options, message) in cases {
            XCTAssertThrowsError(try VideoReader(source: source, options: options), source) { error in
                XCTAssertEqual((error as? VideoError)?.description, message)
            }
        }
    }

    /// `video` on a device: a picture from it gives the detections `detect` gives on the same
    /// pixels, what the device gives is said first, and frames arriving faster than the network
    /// runs are dropped by default (the newest is processed, as for a network stream), so the
    /// lag does not grow.
    func testVideoOnADeviceDetectsAndDropsStaleFrames() throws {
        let directory = try temporaryDirectory("device")
        let photo = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let png = directory.appendingPathComponent("dog.png")
        try FFmpeg.run(["-i", photo.path, "-pix_fmt", "rgb24", png.path])
        let model = try TestPaths.tinyModelArguments()
        let still = try SwiftDarknetTool.run(["video"] + model + ["--json", "--input-format", "lavfi",
                                                                "movie=\(photo.path),format=rgb24"])
        XCTAssertEqual(still.status, 0, still.stderr)
        let detect = try SwiftDarknetTool.run(["detect"] + model + ["--json", png.path])
        XCTAssertEqual(detect.status, 0, detect.stderr)
        let frame = try XCTUnwrap(try still.jsonLines().first)
        let detections = try XCTUnwrap(frame["detections"] as? [[String: Any]])
        XCTAssertFalse(detections.isEmpty)
        XCTAssertEqual(detections as NSArray, try XCTUnwrap(try detect.jsonLines().first?["detections"] as? NSArray))

        try VideoTestSupport.assertFastDeviceDropsStaleFrames("video", model: model)
    }

    /// The first V4L2 camera, where the machine has one: one frame of the size it says. Without
    /// one (the test machines), the output says the V4L2 path was not exercised.
    func testTheFirstCameraGivesAFrameIfThereIsOne() throws {
        let cameras = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .filter { $0.hasPrefix("video") }.sorted()
        guard let first = cameras.first else {
            print("CaptureDeviceTests: no V4L2 camera (/dev/video*) on this machine: reading one was not exercised; "
                  + "devices are tested through libavdevice's lavfi input")
            return
        }
        let reader = try VideoReader(source: "/dev/\(first)")
        XCTAssertEqual(reader.kind, .device)
        let frame = try XCTUnwrap(try reader.nextFrame())
        XCTAssertEqual([frame.pixels.width, frame.pixels.height], [reader.width, reader.height])
    }

    /// A camera that is not there fails before the network loads, naming it, exit status 1.
    func testMissingCameraIsExitStatusOne() throws {
        let result = try SwiftDarknetTool.run(["video"] + (try TestPaths.tinyModelArguments()) + ["--camera", "97"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("/dev/video97: cannot open as video: No such file or directory (no camera there)"),
                      result.stderr)
    }
}
