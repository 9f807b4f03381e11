import Darknet
import DarknetVideo
import Foundation
import XCTest

/// Decoding real clips the `ffmpeg` command encodes: every frame, in order, with the stream's
/// timestamps, in the formats the core reads.
final class VideoReaderTests: XCTestCase {
    func readAll(_ reader: VideoReader) throws -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    func testH264MP4GivesEveryFrameWithStreamTimestamps() throws {
        let directory = try VideoTestSupport.temporaryDirectory(self)
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mp4"), codec: VideoTestSupport.h264)
        let reader = try VideoReader(source: clip.path)
        XCTAssertEqual(reader.kind, .file)
        XCTAssertEqual(reader.codecName, "h264")
        XCTAssertEqual(reader.width, 320)
        XCTAssertEqual(reader.height, 240)
        XCTAssertEqual(reader.frameRate ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(reader.estimatedFrameCount, 30)
        let frames = try readAll(reader)
        XCTAssertEqual(frames.count, 30, "the decoder must be flushed at the end")
        XCTAssertEqual(frames.map(\.index), Array(0..<30))
        for (i, frame) in frames.enumerated() {
            XCTAssertEqual(frame.timestamp, Double(i) / 30, accuracy: 1e-6)
            XCTAssertEqual(frame.pixels.format, .i420(.video))
            XCTAssertEqual(frame.pixels.width, 320)
            XCTAssertEqual(frame.pixels.height, 240)
        }
        XCTAssertNil(try reader.nextFrame())
    }

    func testMJPEGAVIAndPNGSequenceDecode() throws {
        let directory = try VideoTestSupport.temporaryDirectory(self)
        let avi = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.avi"), frames: 12, codec: VideoTestSupport.mjpeg)
        let mjpeg = try readAll(try VideoReader(source: avi.path))
        XCTAssertEqual(mjpeg.count, 12)
        XCTAssertEqual(mjpeg.first?.pixels.format, .rgb, "yuvj422p goes through libswscale to rgb24")

        try FileManager.default.createDirectory(at: directory.appendingPathComponent("frames"), withIntermediateDirectories: true)
        try VideoTestSupport.ffmpeg(["-i", avi.path, directory.appendingPathComponent("frames/%04d.png").path])
        let pattern = directory.appendingPathComponent("frames/%04d.png").path
        let reader = try VideoReader(source: pattern)
        XCTAssertEqual(reader.kind, .imageSequence)
        let pngs = try readAll(reader)
        XCTAssertEqual(pngs.count, 12)
        XCTAssertEqual(pngs.first?.pixels.format, .rgb)
        XCTAssertEqual(pngs.map(\.index), Array(0..<12))
    }

    func testMPEG4AndHEVCInMKVDecode() throws {
        let directory = try VideoTestSupport.temporaryDirectory(self)
        let mkv = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mkv"), frames: 10,
                                                codec: ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=none"])
        XCTAssertEqual(try readAll(try VideoReader(source: mkv.path)).count, 10)
        let avi = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan4.avi"), frames: 10, codec: ["-c:v", "mpeg4"])
        let frames = try readAll(try VideoReader(source: avi.path))
        XCTAssertEqual(frames.count, 10)
        XCTAssertEqual(frames.first?.pixels.format, .i420(.video))
    }

    func testSourceKinds() {
        XCTAssertEqual(VideoSourceKind("rtsp://127.0.0.1/cam"), .network)
        XCTAssertEqual(VideoSourceKind("udp://127.0.0.1:5000"), .network)
        XCTAssertEqual(VideoSourceKind("file:///tmp/a.mp4"), .file)
        XCTAssertEqual(VideoSourceKind("clips/a.mp4"), .file)
        XCTAssertEqual(VideoSourceKind("frames/%04d.png"), .imageSequence)
        XCTAssertEqual(VideoSourceKind("frames/%d.png"), .imageSequence)
        XCTAssertEqual(VideoSourceKind("100%.mp4"), .file)
    }
}
