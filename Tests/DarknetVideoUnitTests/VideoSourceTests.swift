@testable import Darknet
import DarknetVideo
import Foundation
import TestSupport
import XCTest

/// What a source string names, and files that are no video (empty, missing, random bytes): a
/// `VideoError` naming the file, in process, without a clip made by `ffmpeg`
/// (`BadVideoInputTests` has the damaged clips and the network sources).
final class VideoSourceTests: XCTestCase {
    func testSourceKinds() {
        XCTAssertEqual(VideoSourceKind("rtsp://127.0.0.1/cam"), .network)
        XCTAssertEqual(VideoSourceKind("udp://127.0.0.1:5000"), .network)
        XCTAssertEqual(VideoSourceKind("file:///tmp/a.mp4"), .file)
        XCTAssertEqual(VideoSourceKind("clips/a.mp4"), .file)
        XCTAssertEqual(VideoSourceKind("frames/%04d.png"), .imageSequence)
        XCTAssertEqual(VideoSourceKind("frames/%d.png"), .imageSequence)
        XCTAssertEqual(VideoSourceKind("100%.mp4"), .file)
    }

    func testRandomBytesNamedMP4IsAnError() throws {
        let directory = try temporaryDirectory("video")
        // Seeded: 1 of 400 random 200 KB files tried held an H.263 picture start code that
        // libavformat accepts (probe score 25) and libavcodec decodes into a frame, as `ffmpeg`
        // does, so unseeded bytes made this test fail now and then.
        var generator = SplitMix64(seed: 5)
        for size in [100, 5000, 200_000] {
            let file = directory.appendingPathComponent("random-\(size).mp4")
            try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)
            XCTAssertThrowsError(try { let r = try VideoReader(source: file.path); while try r.nextFrame() != nil {} }()) { error in
                XCTAssertTrue("\(error)".contains(file.path), "\(error)")
            }
        }
    }

    func testZeroLengthAndMissingFilesAreErrors() throws {
        let directory = try temporaryDirectory("video")
        let empty = directory.appendingPathComponent("empty.mp4")
        try Data().write(to: empty)
        XCTAssertThrowsError(try VideoReader(source: empty.path)) { error in
            guard case .cannotOpen(let source, _)? = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, empty.path)
        }
        let missing = directory.appendingPathComponent("missing.mp4").path
        XCTAssertThrowsError(try VideoReader(source: missing)) { error in
            XCTAssertEqual(error as? VideoError, .cannotOpen(source: missing, reason: "No such file or directory"))
        }
    }

    /// `VideoError` reads as its message, `localizedDescription` included.
    func testVideoErrorReadsAsItsMessage() {
        assertMessages([(VideoError.noFrames(source: "a.mp4"), "a.mp4: no video frame could be decoded")])
    }
}
