import Darknet
import Foundation
import XCTest

/// Files of the evaluation tests: the weights and sample photos Weights/fetch.sh gets, the
/// labelled set Tools/make-evaluation-fixtures.sh builds (with the Python that runs the
/// references), and scratch folders. A missing file fails the test with the command to run.
enum EvaluationFixtures {
    struct Missing: Error, CustomStringConvertible { let description: String }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = packageRoot.appendingPathComponent("Weights/darknet/data")
    static let tinyCfg = packageRoot.appendingPathComponent("Weights/darknet/cfg/yolov3-tiny.cfg")
    static let tinyWeights = packageRoot.appendingPathComponent("Weights/yolov3-tiny.weights")
    static let cocoNames = samples.appendingPathComponent("coco.names")
    /// Tools/make-evaluation-fixtures.sh's output.
    static let set = packageRoot.appendingPathComponent("Fixtures/generated/evaluation")
    static let referenceScript = packageRoot.appendingPathComponent("Tools/evaluation/reference_map.py")

    static func require(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing \(url.path): run ./scripts/test.sh (it fetches the weights and builds the evaluation set)",
                    file: file, line: line)
            throw Missing(description: url.path)
        }
        return url
    }

    /// YOLOv3-tiny with the real weights and COCO's names.
    static func tinyDetector(cfg: URL? = nil) throws -> Detector {
        try Detector(cfg: require(cfg ?? tinyCfg), weights: require(tinyWeights), names: require(cocoNames), threads: 2)
    }

    /// YOLOv3-tiny's cfg with `edit` applied to its text, written into `folder`.
    static func editedTinyCfg(in folder: URL, name: String, _ edit: (String) -> String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try edit(try String(contentsOf: require(tinyCfg), encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The AlexeyAB-dialect form of YOLOv3-tiny the comparisons use: every `[yolo]` with
    /// `nms_kind=greedynms` and `beta_nms=0.6` (as YOLOv4's cfgs have them), so the network is
    /// AlexeyAB's (its batch-norm epsilon) and suppresses by DIoU.
    static func alexeyABTinyCfg(in folder: URL) throws -> URL {
        try editedTinyCfg(in: folder, name: "yolov3-tiny-ab.cfg") {
            $0.replacingOccurrences(of: "[yolo]\n", with: "[yolo]\nnms_kind=greedynms\nbeta_nms=0.6\n")
        }
    }

    /// A fresh folder, removed after the test.
    static func temporaryDirectory(_ testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-evaluation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Writes `text` to `folder/name` (creating subfolders) and returns its URL.
    @discardableResult
    static func write(_ text: String, to name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

/// Runs the `swift-darknet` executable built next to the test bundle.
enum SwiftDarknet {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static var executable: URL {
        let bundle = Bundle.main.bundleURL
        return (bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle).appendingPathComponent("swift-darknet")
    }

    /// Runs `swift-darknet arguments` in `directory`; stdout and stderr go through files (no pipe
    /// can fill up). `peakMemory` receives the largest VmHWM seen while it ran, in bytes.
    static func run(_ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 300,
                    peakMemory: UnsafeMutablePointer<Int>? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var peak = 0
        while process.isRunning && Date() < deadline {
            if peakMemory != nil { peak = max(peak, peakResidentBytes(of: process.processIdentifier) ?? 0) }
            usleep(10_000)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            XCTFail("swift-darknet \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        process.waitUntilExit()
        peakMemory?.pointee = peak
        return Output(status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// `VmHWM` of a running process (its peak resident memory so far).
    private static func peakResidentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }
}
