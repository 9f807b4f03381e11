import Darknet
import DarknetImage
import Foundation
import XCTest

/// Files the batch tests use: the real YOLOv3-tiny (fetched by the README's test command; a
/// missing file fails the test), sample images copied into fresh temporary folders, and the
/// built `swift-darknet` binary.
enum BatchFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let data = packageRoot.appendingPathComponent("Weights/darknet/data")
    static let cfg = packageRoot.appendingPathComponent("Weights/darknet/cfg/yolov3-tiny.cfg")
    static let weights = packageRoot.appendingPathComponent("Weights/yolov3-tiny.weights")
    static let names = data.appendingPathComponent("coco.names")

    struct MissingFile: Error { let path: String }

    /// `url`, failing the test when it is missing.
    static func require(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing \(url.path): run ./scripts/test.sh (it fetches the weights and builds the tools)", file: file, line: line)
            throw MissingFile(path: url.path)
        }
        return url
    }

    /// YOLOv3-tiny with COCO's names, one thread.
    static func detector() throws -> Detector {
        try Detector(cfg: require(cfg), weights: require(weights), names: require(names))
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Copies the sample image `name` (e.g. `dog.jpg`) to `destination`.
    static func copySample(_ name: String, to destination: URL) throws {
        try FileManager.default.copyItem(at: require(data.appendingPathComponent(name)), to: destination)
    }

    /// Writes the first 3000 bytes of a sample JPEG: a truncated file the decoder refuses.
    static func writeTruncatedJPEG(to destination: URL) throws {
        let bytes = try Data(contentsOf: require(data.appendingPathComponent("horses.jpg")))
        try bytes.prefix(3000).write(to: destination)
    }

    /// The `swift-darknet` built beside this test bundle (`swift build --build-tests` builds it).
    static func binary() throws -> URL {
        let besideTests = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("swift-darknet")
        if let besideTests, FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return try require(packageRoot.appendingPathComponent(".build/debug/swift-darknet"))
    }
}

/// One run of the `swift-darknet` binary.
struct ToolRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Runs `swift-darknet ARGUMENTS` with `input` on standard input; fails after `timeout` s.
    static func detect(_ arguments: [String], input: Data = Data(), timeout: TimeInterval = 300) throws -> ToolRun {
        let process = Process()
        process.executableURL = try BatchFixtures.binary()
        process.arguments = ["detect", "--cfg", try BatchFixtures.require(BatchFixtures.cfg).path,
                             "--weights", try BatchFixtures.require(BatchFixtures.weights).path,
                             "--names", try BatchFixtures.require(BatchFixtures.names).path] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read both pipes while the tool runs (a full pipe would block it).
        let outData = LockedData(), errData = LockedData()
        let group = DispatchGroup()
        for (pipe, sink) in [(stdout, outData), (stderr, errData)] {
            DispatchQueue.global().async(group: group) { sink.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            throw MissingOutput(description: "swift-darknet \(arguments) did not finish in \(timeout) s")
        }
        group.wait()
        return ToolRun(status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
                       stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    struct MissingOutput: Error, CustomStringConvertible { let description: String }

    /// The stdout lines parsed as JSON objects.
    func jsonLines() throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw MissingOutput(description: "not a JSON object: \(line)")
            }
            return object
        }
    }
}

/// Bytes handed from a reading thread to the test.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
