import Foundation
import XCTest

/// A process the tests start (a Python client, `swift-darknet`), its output going to files, with
/// every wait bounded: past its deadline it is killed and the test fails.
final class ChildProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private let process = Process()
    private let directory: URL
    private let command: String

    /// Starts `path ARGUMENTS` (standard input: nothing).
    init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        command = ([URL(fileURLWithPath: path).lastPathComponent] + arguments.prefix(3)).joined(separator: " ")
        for name in ["stdout", "stderr"] { _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil) }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `path ARGUMENTS` to the end (at most `timeout` seconds).
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 120,
                    file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let child = try ChildProcess(path, arguments, environment: environment)
        return child.wait(timeout: timeout, file: file, line: line)
    }

    var stdout: String { read("stdout") }
    var stderr: String { read("stderr") }
    var isRunning: Bool { process.isRunning }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit (killing the process and failing the test after `timeout` seconds).
    func wait(timeout: Double, file: StaticString = #filePath, line: UInt = #line) -> Result {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("\(command) did not finish within \(timeout) s: killed; stderr: \(stderr.suffix(2000))", file: file, line: line)
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Waits until standard output has a line starting with `prefix` (nil after `timeout` s).
    func waitForLine(startingWith prefix: String, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if !process.isRunning { return nil }
            usleep(20_000)
        }
        return nil
    }

    private func read(_ name: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }
}
