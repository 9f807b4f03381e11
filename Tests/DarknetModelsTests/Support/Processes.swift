import Foundation
import XCTest

/// Runs a tool to completion (bounded: killed after `timeout` seconds) and returns its stdout.
func runTool(_ path: String, _ arguments: [String], timeout: Double = 60) throws -> String {
    let result = try runProcess(path, arguments, timeout: timeout)
    guard result.status == 0 else { throw ToolFailure(message: "\(path) exited \(result.status): \(result.stderr)") }
    return result.stdout
}

struct ToolFailure: Error { let message: String }

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a process with a time limit; its output is collected as it comes.
func runProcess(_ path: String, _ arguments: [String], timeout: Double = 120) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    let out = OutputCollector(stdout.fileHandleForReading), err = OutputCollector(stderr.fileHandleForReading)
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTFail("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s: killed")
    }
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: out.finish(), stderr: err.finish())
}

/// Reads a pipe on a background thread until end of file.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            done.signal()
        }
    }

    /// Everything read so far (waits up to 5 s for end of file).
    func finish() -> String {
        _ = done.wait(timeout: .now() + 5)
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
