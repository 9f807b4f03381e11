@testable import Darknet
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// Bad input is a `VideoError` naming the file or URL, within a bounded time, never a crash
/// or a hang; a damaged file still gives the frames before the damage.
final class BadVideoInputTests: XCTestCase {
    func testTruncatedMP4GivesTheFramesBeforeTheDamageThenAnError() throws {
        let truncated = try VideoTestSupport.truncatedClip(in: temporaryDirectory("video"))
        let reader = try VideoReader(source: truncated.path)
        var frames = 0
        do {
            while try reader.nextFrame() != nil { frames += 1 }
            XCTFail("a truncated file read to its end without an error (\(frames) frames)")
        } catch {
            guard case .readFailed(let source, let framesRead, _) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertEqual(source, truncated.path)
            XCTAssertEqual(framesRead, frames)
            XCTAssertTrue("\(error)".contains(truncated.path))
        }
        XCTAssertGreaterThan(frames, 3)
        XCTAssertLessThan(frames, 30)
    }

    /// One raw H.263 picture probes at libavformat's lowest accepted score (25, "misdetection
    /// possible"): named .mp4 it is refused as the damaged MP4 it would be, not decoded; named
    /// .h263, an extension no other format claims, FFmpeg's guess stands and it decodes.
    func testLowScoreGuessIsRefusedWhereTheExtensionNamesAnotherFormat() throws {
        let directory = try temporaryDirectory("video")
        let raw = directory.appendingPathComponent("one.h263")
        try FFmpeg.run(["-f", "lavfi", "-i", "testsrc=size=128x96:rate=5", "-frames:v", "1", "-c:v", "h263",
                                     "-f", "h263", raw.path])
        let misnamed = directory.appendingPathComponent("damaged.mp4")
        try FileManager.default.copyItem(at: raw, to: misnamed)
        XCTAssertThrowsError(try VideoReader(source: misnamed.path)) { error in
            guard case .cannotOpen(let source, let reason)? = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, misnamed.path)
            XCTAssertTrue(reason.contains("(.mp4)") && reason.contains("H.263") && reason.contains("score of 25"), reason)
        }
        let reader = try VideoReader(source: raw.path)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        XCTAssertEqual(frames, 1)
    }

    func testClosedPortOnLoopbackIsAnErrorNotAHang() throws {
        let port = VideoTestSupport.closedPort()
        for url in ["tcp://127.0.0.1:\(port)", "http://127.0.0.1:\(port)/clip.mp4", "rtsp://127.0.0.1:\(port)/cam"] {
            let start = Date()
            XCTAssertThrowsError(try VideoReader(source: url, options: VideoReaderOptions(timeout: 3))) { error in
                XCTAssertTrue("\(error)".contains(url), "\(error)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, url)
        }
    }

    func testSilentUDPPortTimesOut() throws {
        let url = "udp://127.0.0.1:\(VideoTestSupport.freePort(type: Int32(SOCK_DGRAM.rawValue)))"
        let start = Date()
        XCTAssertThrowsError(try VideoReader(source: url, options: VideoReaderOptions(timeout: 1.5))) { error in
            XCTAssertEqual(error as? VideoError, .timedOut(source: url, seconds: 1.5))
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(elapsed, 1.4)
        XCTAssertLessThan(elapsed, 4)
    }

    func testUDPStreamThatStopsSendingTimesOutAfterItsFrames() throws {
        let (url, sender) = try VideoTestSupport.udpStream(in: try temporaryDirectory("video"))
        defer { sender.stop() }
        let start = Date()
        let reader = try VideoReader(source: url, options: VideoReaderOptions(timeout: 2))
        XCTAssertEqual(reader.kind, .network)
        var frames = 0
        do {
            while try reader.nextFrame() != nil { frames += 1 }
            XCTFail("a stopped stream ended without an error")
        } catch {
            XCTAssertEqual(error, .timedOut(source: url, seconds: 2))
        }
        // The sender streams 2 s of video in real time and exits; then 2 s of silence.
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(frames, 20, "frames sent before the sender stopped")
        XCTAssertGreaterThan(elapsed, 3.5)
        XCTAssertLessThan(elapsed, 8)
    }
}
