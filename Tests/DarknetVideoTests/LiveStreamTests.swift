import Foundation
import TestSupport
import XCTest

/// `swift-darknet video --live` on a real-time UDP stream on loopback: `ffmpeg -re` sends
/// 10 s of H.264 in MPEG-TS to udp://127.0.0.1:PORT (a free port the test picks; the
/// test stops the sender itself). The debug-build network is slower than 30 fps, so frames must
/// be dropped, and the lag behind the stream must not grow.
///
/// Lag of a result = when its JSON line reached the test − when the sender started − the
/// frame's presentation time (the sender's timestamps start at 0: `-muxdelay 0 -muxpreload 0`);
/// the sender's start-up adds the same constant to every frame. Bounded means: the mean lag of
/// the results in the last second is within 20 % of the first second's, or grew by less than
/// one forward pass.
final class LiveStreamTests: XCTestCase {
    func testLiveDropsFramesAndItsLagStaysBounded() throws {
        try assertLagStaysBounded(width: 640, height: 360, frames: 300, rate: 30, loops: 0)
    }

    /// The same with a 4K stream (at 10 fps, which a busy core still decodes in real time) whose
    /// frames are cut into four 1920x1080 tiles, run side by side (`--tiles`): a frame takes
    /// several forward passes, and the lag must still not grow.
    func testLiveWithTilesOn4KFramesKeepsItsLagBounded() throws {
        try assertLagStaysBounded(width: 3840, height: 2160, frames: 20, rate: 10, loops: 5,
                                  extra: ["--tiles", "1920x1080", "--tile-overlap", "0", "--no-full-image", "--threads", "2"])
    }

    /// Streams a `frames`-frame clip at `rate` fps (`loops` more times) and checks
    /// `video --live ARGUMENTS` on it, as the class documentation says.
    private func assertLagStaysBounded(width: Int, height: Int, frames: Int, rate: Int, loops: Int, extra: [String] = [],
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try temporaryDirectory("video")
        let clip = try VideoTestSupport.makeClip(directory.appendingPathComponent("live.mp4"), width: width, height: height, frames: frames,
                                                 rate: rate, codec: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "15",
                                                         "-bf", "0"])
        let port = VideoTestSupport.freePort(type: Int32(SOCK_DGRAM.rawValue))
        let url = "udp://127.0.0.1:\(port)"
        let output = Pipe(), errors = Pipe()
        let lines = LineRecorder()
        output.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
        let errorText = LineRecorder()
        errors.fileHandleForReading.readabilityHandler = { handle in errorText.append(handle.availableData) }
        let cli = Process()
        cli.executableURL = try SwiftDarknetTool.require()
        cli.arguments = ["video"] + (try TestPaths.tinyModelArguments()) + ["--live", "--json", "--duration", "9", "--input-timeout", "5"]
            + extra + [url]
        cli.standardOutput = output
        cli.standardError = errors
        cli.standardInput = FileHandle.nullDevice
        try cli.run()
        defer { if cli.isRunning { kill(cli.processIdentifier, SIGKILL) } }
        usleep(1_000_000)  // the command binds the port before it loads the network
        let senderStart = Date()
        let sender = try VideoTestSupport.startUDPSender(clip, port: port, loops: loops, extra: ["-muxdelay", "0", "-muxpreload", "0"])
        defer { sender.stop() }
        let deadline = Date().addingTimeInterval(40)
        while cli.isRunning && Date() < deadline { usleep(20_000) }
        XCTAssertFalse(cli.isRunning, "video --live --duration 9 still running after 40 s")
        sender.stop()
        usleep(200_000)
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        XCTAssertEqual(cli.terminationStatus, 0, errorText.text)

        let results = try lines.lines.map { line, arrival -> (time: Double, lag: Double) in
            let time = try jsonObject(line)["time"] as? Double ?? .nan
            return (time, arrival.timeIntervalSince(senderStart) - time)
        }
        XCTAssertGreaterThan(results.count, 5, errorText.text)
        let summary = errorText.text
        guard let counts = Self.numbers(in: summary, after: ["frames read ", "processed ", "dropped ", "forward p50 "]) else {
            return XCTFail("no summary in: \(summary)")
        }
        let (read, processed, dropped, forward) = (counts[0], counts[1], counts[2], counts[3] / 1000)
        XCTAssertGreaterThan(dropped, 0, "the network is slower than the stream: --live must drop frames", file: file, line: line)
        XCTAssertEqual(processed, Double(results.count))
        XCTAssertGreaterThan(read, 0.75 * 9 * Double(rate), "about 9 s of a \(rate) fps stream decoded", file: file, line: line)
        XCTAssertEqual(read, processed + dropped)

        guard let first = results.first?.time, let last = results.last?.time else { return }
        let firstSecond = results.filter { $0.time < first + 1 }.map(\.lag)
        let lastSecond = results.filter { $0.time > last - 1 }.map(\.lag)
        let firstLag = firstSecond.reduce(0, +) / Double(firstSecond.count)
        let lastLag = lastSecond.reduce(0, +) / Double(lastSecond.count)
        print(String(format: "live: read %.0f, processed %.0f, dropped %.0f; lag first second %.3f s, last second %.3f s; forward %.3f s",
                     read, processed, dropped, firstLag, lastLag, forward))
        XCTAssertTrue(lastLag <= 1.2 * firstLag || lastLag - firstLag < forward,
                      "lag grew from \(firstLag) s to \(lastLag) s (forward \(forward) s)", file: file, line: line)
    }

    /// The numbers following each of `labels` in order in `text`.
    static func numbers(in text: String, after labels: [String]) -> [Double]? {
        var result: [Double] = []
        var rest = Substring(text)
        for label in labels {
            guard let range = rest.range(of: label) else { return nil }
            rest = rest[range.upperBound...]
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            guard let value = Double(digits) else { return nil }
            result.append(value)
        }
        return result
    }
}

/// Lines written to a pipe, with when each arrived.
final class LineRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var received: [(String, Date)] = []
    private var all = Data()

    func append(_ data: Data) {
        let now = Date()
        lock.withLock {
            all.append(data)
            buffer.append(data)
            while let newline = buffer.firstIndex(of: 10) {
                received.append((String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self), now))
                buffer = Data(buffer[buffer.index(after: newline)...])
            }
        }
    }

    var lines: [(String, Date)] { lock.withLock { received } }
    var text: String { lock.withLock { String(decoding: all, as: UTF8.self) } }
}
