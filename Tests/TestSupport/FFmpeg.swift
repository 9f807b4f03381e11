import Foundation
import XCTest

/// The `ffmpeg` command, which the README's test command installs: the reference for YUV
/// conversion, the encoder of the test clips, the sender of the live streams. Missing, it fails
/// the test.
public enum FFmpeg {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public static var path: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Its path, failing the test when it is not installed.
    public static func require(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard let path else {
            XCTFail("ffmpeg is not installed: run ./scripts/test.sh (it installs it)", file: file, line: line)
            throw Failure(description: "ffmpeg is not installed")
        }
        return path
    }

    /// Runs `ffmpeg -nostdin -loglevel error -y ARGUMENTS` to the end (at most `timeout`
    /// seconds), throwing unless it succeeds.
    public static func run(_ arguments: [String], timeout: Double = 120, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try ChildProcess.run(require(file: file, line: line), ["-nostdin", "-loglevel", "error", "-y"] + arguments,
                                          timeout: timeout, file: file, line: line)
        guard result.status == 0, result.reason == .exit else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }

    /// Starts `ffmpeg -nostdin -loglevel error ARGUMENTS` (a sender the test stops itself).
    public static func start(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess {
        try ChildProcess(require(file: file, line: line), ["-nostdin", "-loglevel", "error"] + arguments)
    }
}
