import Darknet
import DarknetServe
import Foundation
import TestSupport
import XCTest

/// What the serving tests share: the files (fetched by the README's test command), one loaded
/// YOLOv3-tiny, the Python clients' virtual environment, and `swift-darknet detect --json` as the
/// reference every response is compared with.
enum ServeFixtures {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let clients = TestPaths.packageRoot.appendingPathComponent("Tests/DarknetServeTests/Clients")
    /// Darknet's sample photos.
    static let photos = ["dog", "eagle", "giraffe", "horses", "kite", "person", "scream"].map { TestPaths.sample("\($0).jpg") }

    /// The virtual environment `scripts/setup.sh --fixtures` makes for the real clients
    /// (deepstack-python, pyzmq, numpy, Pillow); `SWIFTDARKNET_SERVE_VENV` overrides it.
    static var venvPython: URL {
        let environment = ProcessInfo.processInfo.environment
        let venv = environment["SWIFTDARKNET_SERVE_VENV"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/swiftdarknet-serve-venv")
        return venv.appendingPathComponent("bin/python")
    }

    /// Runs the client `script` (in `Clients/`) with the virtual environment's Python; its
    /// standard output's JSON lines.
    static func runClient(_ script: String, _ arguments: [String], timeout: Double = 180) throws -> [[String: Any]] {
        let python = try TestPaths.require(venvPython, "run ./scripts/setup.sh --fixtures (it makes the clients' virtual environment)")
        let result = try ChildProcess.run(python.path, [clients.appendingPathComponent(script).path] + arguments, timeout: timeout)
        guard result.status == 0 else { throw Failure(description: "\(script) exited \(result.status): \(result.stderr)") }
        return try result.jsonLines()
    }

    /// Starts `swift-darknet serve` with YOLOv3-tiny on a free port and `extra` options; returns
    /// the process and the port.
    static func startServe(_ extra: [String]) throws -> (ChildProcess, Int) {
        let serve = try SwiftDarknetTool.start(["serve"] + (try TestPaths.tinyModelArguments()) + ["--port", "0"] + extra)
        guard let line = serve.waitForLine(startingWith: "swift-darknet serve: http://127.0.0.1:", timeout: 120),
              let port = Int(line.split(separator: ":").last?.split(separator: " ").first ?? "") else {
            throw Failure(description: "serve did not start: \(serve.stderr)")
        }
        return (serve, port)
    }

    /// Starts `swift-darknet serve` as `startServe` does and runs `body` with it. An error
    /// `body` throws (a connection closed, a reply missing) comes back with the server's state
    /// beside it: still running, or how it ended, and the end of its standard error (where a
    /// sanitizer's report or a crash would be).
    static func withServe(_ extra: [String], _ body: (ChildProcess, Int) throws -> Void) throws {
        let (serve, port) = try startServe(extra)
        do {
            try body(serve, port)
        } catch {
            usleep(200_000)   // a dying server's last words
            let state = serve.isRunning ? "still running" : "ended (\(serve.wait(timeout: 5).endDescription))"
            throw Failure(description: "\(error); the server: \(state), its standard error: \(serve.stderr.suffix(4000))")
        }
    }

    /// YOLOv3-tiny with COCO names, loaded once for every test (sessions for 2 workers).
    static func detector() throws -> Detector {
        try shared.lock.withLock {
            if let loaded = shared.detector { return loaded }
            let detector = try TinyYOLO.detector(sessionPolicy: SessionPolicy(maximumSessions: 2, idleTimeout: 60))
            shared.detector = detector
            return detector
        }
    }

    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var detector: Detector?
        var references: [String: [String: [ReferenceDetection]]] = [:]
    }
    private static let shared = Shared()

    /// `swift-darknet detect --json --thresh THRESHOLD` on each image (run once per set and
    /// threshold), by path.
    static func reference(_ images: [URL], threshold: Float = 0.4) throws -> [String: [ReferenceDetection]] {
        let key = images.map(\.path).joined(separator: "|") + "@\(threshold)"
        if let cached = shared.lock.withLock({ shared.references[key] }) { return cached }
        let result = try SwiftDarknetTool.run(["detect"] + (try TestPaths.tinyModelArguments()) + ["--thresh", String(threshold), "--json"]
                                              + images.map(\.path), timeout: 300)
        guard result.status == 0 else { throw Failure(description: "swift-darknet detect failed: \(result.stderr)") }
        var byImage: [String: [ReferenceDetection]] = [:]
        for object in try result.jsonLines() {
            guard let image = object["image"] as? String, let detections = object["detections"] as? [[String: Any]] else {
                throw Failure(description: "not a detect --json line: \(object)")
            }
            byImage[image] = try detections.map(ReferenceDetection.init)
        }
        shared.lock.withLock { shared.references[key] = byImage }
        return byImage
    }
}

/// One detection of `swift-darknet detect --json`: class, label, probability (4 decimals) and
/// Darknet's pixel box.
struct ReferenceDetection: Hashable, CustomStringConvertible {
    let classIndex: Int
    let label: String
    /// As printed: 4 decimals.
    let probability: Double
    let left: Int, top: Int, right: Int, bottom: Int

    init(classIndex: Int, label: String, probability: Double, left: Int, top: Int, right: Int, bottom: Int) {
        (self.classIndex, self.label, self.probability) = (classIndex, label, probability)
        (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
    }

    init(_ json: [String: Any]) throws {
        guard let classIndex = json["class"] as? Int, let label = json["label"] as? String, let prob = json["prob"] as? Double,
              let x = json["x"] as? Int, let y = json["y"] as? Int, let w = json["w"] as? Int, let h = json["h"] as? Int else {
            throw ServeFixtures.Failure(description: "not a detection: \(json)")
        }
        (self.classIndex, self.label, probability) = (classIndex, label, prob)
        (left, top, right, bottom) = (x, y, x + w, y + h)
    }

    var description: String { "\(label) \(probability) [\(left), \(top), \(right), \(bottom)]" }
}

/// Checks that `predictions` (a server's, in its order) are `reference` (detect --json's) as a
/// DeepStack client needs them: the same detections (label, probability to 4 decimals, box in
/// pixels), highest confidence first.
func assertSameDetections(_ predictions: [(label: String, confidence: Double, left: Int, top: Int, right: Int, bottom: Int)],
                          _ reference: [ReferenceDetection], _ context: String, file: StaticString = #filePath, line: UInt = #line) {
    let served = predictions.map { p in
        ReferenceDetection(classIndex: -1, label: p.label, probability: Double(String(format: "%.4f", Float(p.confidence)))!,
                           left: p.left, top: p.top, right: p.right, bottom: p.bottom)
    }
    let expected = reference.map {
        ReferenceDetection(classIndex: -1, label: $0.label, probability: $0.probability, left: $0.left, top: $0.top, right: $0.right, bottom: $0.bottom)
    }
    XCTAssertEqual(served.sorted { $0.description < $1.description }, expected.sorted { $0.description < $1.description },
                   "\(context): the server's detections differ from detect --json's", file: file, line: line)
    let confidences = predictions.map(\.confidence)
    XCTAssertEqual(confidences, confidences.sorted(by: >), "\(context): predictions are not highest confidence first", file: file, line: line)
}

/// Checks Frigate's 20 x 6 reply rows `[class, score, y_min, x_min, y_max, x_max]` (fractions of a
/// `width` x `height` tensor) against `detect --json`'s detections of the same pixels: the first
/// 20 by probability, highest score first, zero rows after them.
func assertSameFrigateRows(_ rows: [[Double]], _ reference: [ReferenceDetection], width: Double, height: Double, _ context: String,
                           file: StaticString = #filePath, line: UInt = #line) {
    let expected = reference.sorted { $0.probability > $1.probability }.prefix(20)
    XCTAssertFalse(expected.isEmpty, context, file: file, line: line)
    XCTAssertEqual(rows.count, 20, context, file: file, line: line)
    let found = rows.prefix { $0[1] > 0 }
    XCTAssertEqual(found.count, expected.count, "\(context): \(found) vs \(expected)", file: file, line: line)
    XCTAssertTrue(rows.dropFirst(found.count).allSatisfy { $0 == [0, 0, 0, 0, 0, 0] }, "\(context): rows after the last are zero", file: file, line: line)
    XCTAssertEqual(found.map { $0[1] }, found.map { $0[1] }.sorted(by: >), "\(context): highest score first", file: file, line: line)
    // Compared as sets: detections of equal printed probability may come in either order.
    let served = Set(found.map { row in
        ReferenceDetection(classIndex: Int(row[0]), label: "", probability: Double(String(format: "%.4f", Float(row[1])))!,
                           left: Int((row[3] * width).rounded()), top: Int((row[2] * height).rounded()),
                           right: Int((row[5] * width).rounded()), bottom: Int((row[4] * height).rounded()))
    })
    let wanted = Set(expected.map {
        ReferenceDetection(classIndex: $0.classIndex, label: "", probability: $0.probability, left: $0.left, top: $0.top,
                           right: $0.right, bottom: $0.bottom)
    })
    XCTAssertEqual(served, wanted, context, file: file, line: line)
}
