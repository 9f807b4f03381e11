import Foundation
import XCTest

/// Runs the `swift-darknet` executable built next to the test bundle.
enum CLITool {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static var executable: URL {
        // On Linux the test bundle is an executable in the products directory.
        let products = Bundle.main.bundleURL.pathExtension == "xctest"
            ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        return products.appendingPathComponent("swift-darknet")
    }

    /// The model arguments for YOLOv3-tiny with COCO names.
    static func modelArguments() throws -> [String] {
        ["--cfg", try VideoTestSupport.require(VideoTestSupport.cfg.appendingPathComponent("yolov3-tiny.cfg")).path,
         "--weights", try VideoTestSupport.require(VideoTestSupport.tinyWeights).path,
         "--names", try VideoTestSupport.require(VideoTestSupport.data.appendingPathComponent("coco.names")).path]
    }

    static func launch(_ arguments: [String], stdout: FileHandle, stderr: FileHandle) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `swift-darknet ARGUMENTS`, killing it after `timeout` seconds (then the test fails).
    static func run(_ arguments: [String], timeout: TimeInterval = 600, file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = try launch(arguments, stdout: try FileHandle(forWritingTo: out), stderr: try FileHandle(forWritingTo: err))
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            XCTFail("swift-darknet \(arguments.joined(separator: " ")) did not finish in \(timeout) s", file: file, line: line)
        }
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A JSON line as a dictionary.
    static func object(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw VideoTestSupport.Failure(description: "not a JSON object: \(line)")
        }
        return object
    }
}
