import Foundation
import TestSupport
import XCTest

/// Generated clips, loopback ports and live senders for the video tests. The README's test
/// command installs ffmpeg and fetches the sample photos; a missing one fails the test.
enum VideoTestSupport {
    /// ffmpeg input arguments for `frames` frames at `rate` fps of a `width`x`height` window
    /// panning left to right over `photo` upscaled to twice the window's width.
    static func panArguments(photo: String = "dog.jpg", width: Int, height: Int, frames: Int, rate: Int = 30) throws -> [String] {
        let image = try TestPaths.require(TestPaths.sample(photo))
        let step = max(1, width / max(1, frames))
        return ["-loop", "1", "-framerate", String(rate), "-i", image.path,
                "-vf", "scale=\(2 * width):-2,crop=\(width):\(height):'min(n*\(step),iw-\(width))':(ih-\(height))/2",
                "-frames:v", String(frames), "-r", String(rate)]
    }

    /// A panning clip encoded with `codec` arguments (e.g. `["-c:v", "libx264", "-pix_fmt", "yuv420p"]`).
    static func makeClip(_ url: URL, width: Int = 320, height: Int = 240, frames: Int = 30, rate: Int = 30,
                         codec: [String]) throws -> URL {
        try FFmpeg.run(try panArguments(width: width, height: height, frames: frames, rate: rate) + codec + [url.path])
        return url
    }

    /// `swift-darknet COMMAND MODEL --json --duration 1` on a 500 fps real-time `lavfi` device:
    /// the device's line first on stderr, over 400 frames read, some dropped (the newest is
    /// processed, so the lag does not grow), one result a processed frame, in frame order.
    static func assertFastDeviceDropsStaleFrames(_ command: String, model: [String],
                                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let graph = "testsrc2=size=320x240:rate=500,realtime"
        let fast = try SwiftDarknetTool.run([command] + model + ["--json", "--duration", "1", "--input-format", "lavfi", graph],
                                            timeout: 60)
        XCTAssertEqual(fast.status, 0, fast.stderr, file: file, line: line)
        XCTAssertTrue(fast.stderr.hasPrefix("swift-darknet: \(graph): 320x240 rawvideo (yuv420p) at 500 fps\n"),
                      "what the device gives, first: \(fast.stderr)", file: file, line: line)
        let read = try XCTUnwrap(LiveStreamTests.numbers(in: fast.stderr, after: ["frames read ", "processed ", "dropped "]),
                                 fast.stderr, file: file, line: line)
        XCTAssertGreaterThan(read[0], 400, fast.stderr, file: file, line: line)
        XCTAssertGreaterThan(read[2], 0, "a 500 fps device outruns the network: \(fast.stderr)", file: file, line: line)
        XCTAssertEqual(read[1] + read[2], read[0], fast.stderr, file: file, line: line)
        let indices = try fast.jsonLines().compactMap { $0["frame"] as? Int }
        XCTAssertEqual(indices.count, Int(read[1]), file: file, line: line)
        XCTAssertEqual(indices, indices.sorted(), file: file, line: line)
        XCTAssertEqual(Set(indices).count, indices.count, "each frame once", file: file, line: line)
    }

    static let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
    static let mjpeg = ["-c:v", "mjpeg", "-q:v", "3"]

    /// `truncated.mp4` in `directory`: the first 80 % of the bytes of a 30-frame H.264 clip
    /// (`whole.mp4`), so the frames before the damage decode and then reading fails.
    static func truncatedClip(in directory: URL) throws -> URL {
        let clip = try makeClip(directory.appendingPathComponent("whole.mp4"), frames: 30, codec: h264)
        let bytes = try Data(contentsOf: clip)
        let truncated = directory.appendingPathComponent("truncated.mp4")
        try bytes.prefix(bytes.count * 8 / 10).write(to: truncated)
        return truncated
    }

    /// A TCP port on 127.0.0.1 nobody listens on (bound, then closed again).
    static func closedPort() -> Int {
        freePort(type: Int32(SOCK_STREAM.rawValue))
    }

    /// A port on 127.0.0.1 free for `type` (SOCK_STREAM or SOCK_DGRAM) right now.
    static func freePort(type: Int32) -> Int {
        let fd = socket(AF_INET, type, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `ffmpeg -re` sending `clip` as MPEG-TS to udp://127.0.0.1:PORT (looping it
    /// `loops` extra times); the caller stops it with `stop()`.
    /// A 60-frame H.264 clip made in `directory`, sent (`loops` more times) as MPEG-TS over UDP
    /// to a free port on 127.0.0.1: the stream's URL and its ffmpeg sender (stop it).
    static func udpStream(in directory: URL, loops: Int = 0) throws -> (url: String, sender: ChildProcess) {
        // A key frame (with the stream's parameter sets) every 10 frames, as a live camera sends
        // them: a reader that binds the port after the first packets left still finds one.
        let clip = try makeClip(directory.appendingPathComponent("clip.mp4"), frames: 60, codec: h264 + ["-g", "10"])
        let port = freePort(type: Int32(SOCK_DGRAM.rawValue))
        return ("udp://127.0.0.1:\(port)", try startUDPSender(clip, port: port, loops: loops))
    }

    static func startUDPSender(_ clip: URL, port: Int, loops: Int = 0, extra: [String] = [],
                               file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess {
        try FFmpeg.start(["-re", "-stream_loop", String(loops), "-i", clip.path, "-c", "copy"] + extra
                         + ["-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316"], file: file, line: line)
    }
}
