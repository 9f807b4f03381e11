import Foundation
import XCTest

/// The `ffmpeg` command, which the README's test command installs: the reference for YUV
/// conversion (and, for video, the encoder of the test clips). Missing, it fails the test.
enum FFmpegTool {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static var path: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `ffmpeg -nostdin -loglevel error -y ARGUMENTS` and waits (at most `timeout` seconds).
    static func run(_ arguments: [String], timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let path else {
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
        if process.isRunning { process.terminate(); throw Failure(description: "ffmpeg timed out: \(arguments)") }
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")) failed: \(message)")
        }
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
