import Foundation
import TestSupport
import XCTest

/// `swift-darknet video --json` on real encoded clips against `swift-darknet detect --json`
/// on the frames `ffmpeg` extracts to PNG: same classes in the same order, boxes within 1 px,
/// probabilities within 0.01.
///
/// The clips are 150 frames (5 s at 30 fps) of a 1280x720 window panning over dog.jpg
/// upscaled to 2560 pixels wide, as H.264 in MP4 and as MJPEG in AVI. To keep the debug-build
/// test time modest, `--stride 5` detects on 30 of the 150 frames (0, 5, ..., 145), spread over
/// the whole clip; detect runs on the same 30 extracted frames.
final class VideoFidelityTests: XCTestCase {
    func testH264MatchesDetectOnExtractedFrames() throws {
        try compare(codec: VideoTestSupport.h264, name: "pan.mp4")
    }

    func testMJPEGMatchesDetectOnExtractedFrames() throws {
        try compare(codec: VideoTestSupport.mjpeg, name: "pan.avi")
    }

    private func compare(codec: [String], name: String) throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent(name), width: 1280, height: 720,
                                                 frames: 150, codec: codec)
        let frames = directory.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        try FFmpeg.run(["-i", clip.path, "-start_number", "0", frames.appendingPathComponent("%04d.png").path])
        let model = try TestPaths.tinyModelArguments()

        let video = try SwiftDarknetTool.run(["video"] + model + ["--json", "--stride", "5", clip.path])
        XCTAssertEqual(video.status, 0, video.stderr)
        let indices = Array(stride(from: 0, to: 150, by: 5))
        let images = indices.map { frames.appendingPathComponent(String(format: "%04d.png", $0)).path }
        let detect = try SwiftDarknetTool.run(["detect"] + model + ["--json"] + images)
        XCTAssertEqual(detect.status, 0, detect.stderr)

        let videoLines = try video.jsonLines()
        let detectLines = try detect.jsonLines()
        XCTAssertEqual(videoLines.map { $0["frame"] as? Int }, indices)
        XCTAssertEqual(detectLines.count, indices.count)
        var largestBox = 0, largestProb = 0.0, total = 0
        for (i, (videoLine, detectLine)) in zip(videoLines, detectLines).enumerated() {
            XCTAssertEqual(videoLine["time"] as? Double ?? -1, Double(indices[i]) / 30, accuracy: 1e-5)
            let a = videoLine["detections"] as? [[String: Any]] ?? [], b = detectLine["detections"] as? [[String: Any]] ?? []
            XCTAssertEqual(a.map { $0["class"] as? Int }, b.map { $0["class"] as? Int }, "frame \(indices[i])")
            XCTAssertEqual(a.map { $0["label"] as? String }, b.map { $0["label"] as? String }, "frame \(indices[i])")
            for (x, y) in zip(a, b) {
                for key in ["x", "y", "w", "h"] {
                    let difference = abs((x[key] as? Int ?? -9999) - (y[key] as? Int ?? 9999))
                    largestBox = max(largestBox, difference)
                    XCTAssertLessThanOrEqual(difference, 1, "frame \(indices[i]) \(key)")
                }
                let difference = abs((x["prob"] as? Double ?? -1) - (y["prob"] as? Double ?? 1))
                largestProb = max(largestProb, difference)
                XCTAssertLessThanOrEqual(difference, 0.01, "frame \(indices[i]) prob")
                total += 1
            }
        }
        XCTAssertGreaterThan(total, 20, "the clip should show the dog (and more) in most frames")
        print("video fidelity \(name): \(indices.count) frames, \(total) detections; largest box difference \(largestBox) px, largest probability difference \(largestProb)")
    }
}
