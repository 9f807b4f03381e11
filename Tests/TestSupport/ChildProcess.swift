import Foundation
import XCTest

/// A process the tests start (`swift-darknet`, `ffmpeg`, a Python client or server), its
/// standard output and error going to files, so no pipe can fill up and stall it, with every
/// wait bounded: past its deadline it is killed and the test fails. Dropped while running, it is
/// killed; its files are removed.
public final class ChildProcess {
    /// How a finished process ended and what it wrote.
    public struct Result {
        public let status: Int32
        public let reason: Process.TerminationReason
        public let stdout: String
        public let stderr: String
        /// The largest peak resident memory (`VmHWM`) seen while waiting for it, in bytes.
        public let peakResidentBytes: Int

        /// How it ended, in words: "exit status 1" or "signal 6".
        public var endDescription: String {
            reason == .uncaughtSignal ? "signal \(status)" : "exit status \(status)"
        }

        /// The non-empty lines of standard output.
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// Standard output's lines, each a JSON object (the `--json` outputs).
        public func jsonLines() throws -> [[String: Any]] {
            try lines.map(jsonObject)
        }
    }

    private let process = Process()
    private let directory: URL
    private let command: String

    /// Starts `executable ARGUMENTS` with `environment` added to this process's and the
    /// variables `unsetting` removed from it, in `directory` (or this process's), with `input` on
    /// standard input (or nothing).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, unsetting: [String] = [],
                in workingDirectory: URL? = nil, input: Data? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        command = ([executable.lastPathComponent] + arguments.prefix(3)).joined(separator: " ")
        for name in ["stdout", "stderr"] { _ = FileManager.default.createFile(atPath: file(name).path, contents: nil) }
        process.executableURL = executable
        process.arguments = arguments
        if environment != nil || !unsetting.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment ?? [:]) { $1 }
                .filter { !unsetting.contains($0.key) }
        }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        if let input {
            try input.write(to: file("stdin"))
            process.standardInput = try FileHandle(forReadingFrom: file("stdin"))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = try FileHandle(forWritingTo: file("stdout"))
        process.standardError = try FileHandle(forWritingTo: file("stderr"))
        try process.run()
    }

    /// Starts `path ARGUMENTS` (see `init(_:_:environment:in:input:)`).
    public convenience init(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                            in workingDirectory: URL? = nil, input: Data? = nil) throws {
        try self.init(URL(fileURLWithPath: path), arguments, environment: environment, in: workingDirectory, input: input)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `executable ARGUMENTS` to the end (at most `timeout` seconds: then it is killed and
    /// the test fails).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                           unsetting: [String] = [], in workingDirectory: URL? = nil, input: Data? = nil,
                           timeout: Double = 300, file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let child = try ChildProcess(executable, arguments, environment: environment, unsetting: unsetting,
                                     in: workingDirectory, input: input)
        return child.wait(timeout: timeout, file: file, line: line)
    }

    /// `run` for a path.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                           in workingDirectory: URL? = nil, input: Data? = nil, timeout: Double = 300,
                           file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        try run(URL(fileURLWithPath: path), arguments, environment: environment, in: workingDirectory, input: input,
                timeout: timeout, file: file, line: line)
    }

    /// What it has written so far.
    public var stdout: String { read("stdout") }
    public var stderr: String { read("stderr") }
    public var isRunning: Bool { process.isRunning }
    public var processIdentifier: Int32 { process.processIdentifier }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit (noting its peak memory every 10 ms); after `timeout` seconds kills
    /// the process and fails the test.
    public func wait(timeout: Double, file: StaticString = #filePath, line: UInt = #line) -> Result {
        let deadline = Date().addingTimeInterval(timeout)
        var peak = 0
        while process.isRunning, Date() < deadline {
            peak = max(peak, peakResidentBytes ?? 0)
            usleep(10_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("\(command) did not finish within \(timeout) s: killed; stderr: \(stderr.suffix(2000))", file: file, line: line)
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, reason: process.terminationReason, stdout: stdout, stderr: stderr,
                      peakResidentBytes: peak)
    }

    /// Stops it within about `grace` seconds (SIGTERM, then SIGKILL), without failing the test.
    public func stop(grace: Double = 2) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits until standard output has a line starting with `prefix` (nil after `timeout` s or
    /// once the process has ended without one).
    public func waitForLine(startingWith prefix: String, timeout: Double) -> String? {
        waitForLines(timeout: timeout) { $0.first { $0.hasPrefix(prefix) } }
    }

    /// Waits until `found` returns something for standard output's lines (nil after `timeout`
    /// s or once the process has ended without it).
    public func waitForLines<T>(timeout: Double, _ found: ([String]) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let running = process.isRunning
            if let value = found(stdout.split(separator: "\n").map(String.init)) { return value }
            if !running { return nil }
            usleep(20_000)
        }
        return nil
    }

    /// The peak resident memory of the running process so far (`VmHWM`), in bytes.
    public var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private func read(_ name: String) -> String {
        (try? String(contentsOf: file(name), encoding: .utf8)) ?? ""
    }
}

/// A line of JSON as a dictionary (throws unless it is an object).
public func jsonObject(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw NotAJSONObject(line: line)
    }
    return object
}

public struct NotAJSONObject: Error, CustomStringConvertible {
    public let line: String
    public var description: String { "not a JSON object: \(line)" }
}
