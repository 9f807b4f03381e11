import Foundation
import XCTest

/// Paths, the `ffmpeg` command and generated clips for the video tests. The README's test
/// command installs ffmpeg and fetches the sample photos; a missing one fails the test.
enum VideoTestSupport {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let data = packageRoot.appendingPathComponent("Weights/darknet/data")
    static let cfg = packageRoot.appendingPathComponent("Weights/darknet/cfg")
    static let tinyWeights = packageRoot.appendingPathComponent("Weights/yolov3-tiny.weights")

    static func require(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing \(url.path): run ./scripts/test.sh (it fetches weights and sample images)", file: file, line: line)
            throw Failure(description: "missing \(url.path)")
        }
        return url
    }

    static var ffmpegPath: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `ffmpeg -nostdin -loglevel error -y ARGUMENTS`, at most `timeout` seconds.
    static func ffmpeg(_ arguments: [String], timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let path = ffmpegPath else {
            XCTFail("ffmpeg is not installed: run ./scripts/test.sh (it installs it)", file: file, line: line)
            throw Failure(description: "ffmpeg is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate(); process.waitUntilExit(); throw Failure(description: "ffmpeg timed out: \(arguments)") }
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")) failed: \(message)")
        }
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// ffmpeg input arguments for `frames` frames at `rate` fps of a `width`x`height` window
    /// panning left to right over `photo` upscaled to twice the window's width.
    static func panArguments(photo: String = "dog.jpg", width: Int, height: Int, frames: Int, rate: Int = 30) throws -> [String] {
        let image = try require(data.appendingPathComponent(photo))
        let step = max(1, width / max(1, frames))
        return ["-loop", "1", "-framerate", String(rate), "-i", image.path,
                "-vf", "scale=\(2 * width):-2,crop=\(width):\(height):'min(n*\(step),iw-\(width))':(ih-\(height))/2",
                "-frames:v", String(frames), "-r", String(rate)]
    }

    /// A panning clip encoded with `codec` arguments (e.g. `["-c:v", "libx264", "-pix_fmt", "yuv420p"]`).
    static func makeClip(_ url: URL, width: Int = 320, height: Int = 240, frames: Int = 30, rate: Int = 30,
                         codec: [String]) throws -> URL {
        try ffmpeg(try panArguments(width: width, height: height, frames: frames, rate: rate) + codec + [url.path])
        return url
    }

    static let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
    static let mjpeg = ["-c:v", "mjpeg", "-q:v", "3"]

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
    /// `loops` extra times); the caller stops it with `stop(_:)`.
    static func startUDPSender(_ clip: URL, port: Int, loops: Int = 0, extra: [String] = [],
                               file: StaticString = #filePath, line: UInt = #line) throws -> Process {
        guard let path = ffmpegPath else {
            XCTFail("ffmpeg is not installed: run ./scripts/test.sh (it installs it)", file: file, line: line)
            throw Failure(description: "ffmpeg is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-nostdin", "-loglevel", "error", "-re", "-stream_loop", String(loops), "-i", clip.path,
                             "-c", "copy"] + extra + ["-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Stops a sender within about 2 s (SIGTERM, then SIGKILL).
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
