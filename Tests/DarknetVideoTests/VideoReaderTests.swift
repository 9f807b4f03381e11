import Darknet
import DarknetVideo
import Foundation
import TestSupport
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
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mp4"), codec: VideoTestSupport.h264)
        let reader = try VideoReader(source: clip.path)
        XCTAssertEqual(reader.kind, .file)
        XCTAssertEqual(reader.codecName, "h264")
        XCTAssertEqual(reader.width, 320)
        XCTAssertEqual(reader.height, 240)
        XCTAssertEqual(reader.frameRate ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(reader.estimatedFrameCount, 30)
        XCTAssertEqual("\(reader)", "VideoReader(\(clip.path): file, h264 320 x 240, 30 fps)")
        let frames = try readAll(reader)
        XCTAssertEqual("\(frames[0])", "VideoFrame(index 0, 0.0 seconds, I420 (video range), 320 x 240)",
                       "the frame's size and format, not its planes")
        XCTAssertEqual(frames.count, 30, "the decoder must be flushed at the end")
        XCTAssertEqual(frames.map(\.index), Array(0..<30))
        for (i, frame) in frames.enumerated() {
            XCTAssertEqual(frame.presentationTime.inSeconds, Double(i) / 30, accuracy: 1e-6)
            XCTAssertEqual(frame.pixels.format, .i420(.video))
            XCTAssertEqual(frame.pixels.width, 320)
            XCTAssertEqual(frame.pixels.height, 240)
        }
        XCTAssertNil(try reader.nextFrame())
    }

    func testMJPEGAVIAndPNGSequenceDecode() throws {
        let directory = try temporaryDirectory("video")
        let avi = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.avi"), frames: 12, codec: VideoTestSupport.mjpeg)
        let mjpeg = try readAll(try VideoReader(source: avi.path))
        XCTAssertEqual(mjpeg.count, 12)
        XCTAssertEqual(mjpeg.first?.pixels.format, .rgb, "yuvj422p goes through libswscale to rgb24")

        try FileManager.default.createDirectory(at: directory.appendingPathComponent("frames"), withIntermediateDirectories: true)
        try FFmpeg.run(["-i", avi.path, directory.appendingPathComponent("frames/%04d.png").path])
        let pattern = directory.appendingPathComponent("frames/%04d.png").path
        let reader = try VideoReader(source: pattern)
        XCTAssertEqual(reader.kind, .imageSequence)
        let pngs = try readAll(reader)
        XCTAssertEqual(pngs.count, 12)
        XCTAssertEqual(pngs.first?.pixels.format, .rgb)
        XCTAssertEqual(pngs.map(\.index), Array(0..<12))
    }

    func testMPEG4AndHEVCInMKVDecode() throws {
        let directory = try temporaryDirectory("video")
        let mkv = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan.mkv"), frames: 10,
                                                codec: ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=none"])
        XCTAssertEqual(try readAll(try VideoReader(source: mkv.path)).count, 10)
        let avi = try VideoTestSupport.makeClip(directory.appendingPathComponent("pan4.avi"), frames: 10, codec: ["-c:v", "mpeg4"])
        let frames = try readAll(try VideoReader(source: avi.path))
        XCTAssertEqual(frames.count, 10)
        XCTAssertEqual(frames.first?.pixels.format, .i420(.video))
    }

    /// A stream whose display matrix says to turn it (a phone's portrait video) comes out as the
    /// `ffmpeg` command shows it: the frames `ffmpeg` writes with its autorotation, pixel for
    /// pixel, and `autorotate: false` gives the stored frames, of which the upright ones are
    /// exactly the turn by `rotation` (`PixelBuffer.turned`, tested on its own in the core).
    func testADisplayMatrixTurnsFramesUprightAsTheFFmpegCommandDoes() throws {
        let directory = try temporaryDirectory("video")
        // Lossless 4:4:4, so libswscale's rgb24 of a frame does not depend on where its chroma sits.
        let stored = try VideoTestSupport.makeClip(directory.appendingPathComponent("stored.mp4"), width: 64, height: 48,
                                                   frames: 3, codec: ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv444p"])
        XCTAssertEqual(try VideoReader(source: stored.path).rotation, 0)
        var rotations: Set<Int> = []
        for tag in [90, 180, 270] {
            let clip = directory.appendingPathComponent("rotate\(tag).mp4")
            try FFmpeg.run(["-i", stored.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(tag)", clip.path])
            let reader = try VideoReader(source: clip.path)
            rotations.insert(reader.rotation)
            let upright = try XCTUnwrap(try reader.nextFrame()).pixels
            XCTAssertEqual([reader.width, reader.height], reader.rotation == 180 ? [64, 48] : [48, 64], "rotate=\(tag)")
            XCTAssertEqual([upright.width, upright.height], [reader.width, reader.height], "rotate=\(tag)")

            let raw = directory.appendingPathComponent("ffmpeg\(tag).rgb")
            try FFmpeg.run(["-i", clip.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
            XCTAssertNil(Self.firstDifference(Self.packedRGB(upright), [UInt8](try Data(contentsOf: raw))),
                         "rotate=\(tag): the first byte that differs from the frame ffmpeg shows")

            let asStored = try VideoReader(source: clip.path, options: VideoReaderOptions(autorotate: false))
            XCTAssertEqual(asStored.rotation, reader.rotation)
            XCTAssertEqual([asStored.width, asStored.height], [64, 48])
            let storedFrame = try XCTUnwrap(try asStored.nextFrame()).pixels
            XCTAssertEqual(Self.planes(upright), Self.planes(try storedFrame.turned(clockwise: reader.rotation)), "rotate=\(tag)")
        }
        XCTAssertEqual(rotations, [90, 180, 270])
    }

    /// Where two byte arrays first differ (their common length, if one is shorter), nil if equal.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? (a.count == b.count ? nil : min(a.count, b.count))
    }

    /// Each plane's visible samples without row padding (I420 or packed RGB).
    static func planes(_ buffer: PixelBuffer) -> [[UInt8]] {
        let chroma = ((buffer.width + 1) / 2, (buffer.height + 1) / 2)
        let grids = buffer.format.isYUV ? [(buffer.width, buffer.height), chroma, chroma] : [(3 * buffer.width, buffer.height)]
        return grids.enumerated().map { plane, grid in
            buffer.withUnsafePlane(plane) { bytes, bytesPerRow in
                (0..<grid.1).flatMap { row in Array(bytes[(row * bytesPerRow)..<(row * bytesPerRow + grid.0)]) }
            }
        }
    }

    /// The rows of a packed `.rgb` buffer, without row padding.
    static func packedRGB(_ buffer: PixelBuffer) -> [UInt8] {
        XCTAssertEqual(buffer.format, .rgb)
        return buffer.withUnsafePlane(0) { bytes, bytesPerRow in
            (0..<buffer.height).flatMap { row in Array(bytes[(row * bytesPerRow)..<(row * bytesPerRow + 3 * buffer.width)]) }
        }
    }

    /// A tagged H.264 (4:2:0) clip turns in the decoder's format: its I420 planes are the stored
    /// frame's, each turned, without a conversion to RGB.
    func testATurnedYUVFrameKeepsItsPlanesTurned() throws {
        let directory = try temporaryDirectory("video")
        let stored = try VideoTestSupport.makeClip(directory.appendingPathComponent("stored.mp4"), width: 64, height: 48,
                                                   frames: 2, codec: VideoTestSupport.h264)
        let clip = directory.appendingPathComponent("rotate90.mp4")
        try FFmpeg.run(["-i", stored.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", clip.path])
        let reader = try VideoReader(source: clip.path)
        let asStored = try VideoReader(source: clip.path, options: VideoReaderOptions(autorotate: false))
        XCTAssertNotEqual(reader.rotation, 0)
        while let upright = try reader.nextFrame() {
            let frame = try XCTUnwrap(try asStored.nextFrame())
            XCTAssertEqual(upright.pixels.format, .i420(.video))
            XCTAssertEqual([upright.pixels.width, upright.pixels.height], reader.rotation == 180 ? [64, 48] : [48, 64])
            XCTAssertEqual(Self.planes(upright.pixels), Self.planes(try frame.pixels.turned(clockwise: reader.rotation)),
                           "frame \(upright.index)")
        }
    }
}
