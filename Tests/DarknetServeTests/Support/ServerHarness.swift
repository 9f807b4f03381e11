import Darknet
@testable import DarknetServe
import Foundation
import XCTest

/// A `DetectionServer` on 127.0.0.1 with a port the kernel picks, serving the shared YOLOv3-tiny,
/// its log lines kept; stopped (drained) by `stop()` or when released.
final class ServerHarness {
    let server: DetectionServer
    let log = LogLines()
    var port: Int { server.port }

    /// Starts a server with the test defaults (2 workers, debug logging into `log`) changed by `configure`.
    init(models: [ServedModel]? = nil, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.workers = 2
        configuration.drainTimeout = .seconds(10)
        configuration.log = ServerLog(level: .debug, sink: { [log] in log.append($0) })
        configure(&configuration)
        server = try DetectionServer(models: models ?? [ServedModel(name: "yolov3-tiny", detector: try ServeFixtures.detector(), loadSeconds: 0.25)],
                                     configuration: configuration)
    }

    deinit { server.shutdown() }

    /// `GET /metrics`, parsed: value by `name{labels}` (labels as written).
    func metrics() throws -> [String: Double] {
        let reply = try exchange(port: port, httpRequest("GET", "/metrics"))
        return try parsePrometheus(reply.text)
    }

    /// Waits (at most `timeout` s) until no request is open and no detection job is queued or
    /// running (a job of a request whose client left can wait for a worker a moment longer than
    /// its request stays open); false if something still is.
    func waitUntilIdle(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        func idle() -> Bool { server.openRequests == 0 && server.detectionJobs == (0, 0) }
        while !idle(), Date() < deadline { usleep(10_000) }
        return idle()
    }
}

/// Log lines collected from a server's `ServerLog` sink.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Prometheus' text format read strictly: every line a `# HELP`/`# TYPE` comment or
/// `name{labels} value`; each family's TYPE before its samples. Returns value by `name{labels}`.
func parsePrometheus(_ text: String) throws -> [String: Double] {
    var values: [String: Double] = [:]
    var typed: Set<String> = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        if line.hasPrefix("# HELP ") { continue }
        if line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            guard parts.count == 4, ["counter", "gauge", "histogram"].contains(parts[3]) else {
                throw ServeFixtures.Failure(description: "bad TYPE line: \(line)")
            }
            typed.insert(String(parts[2]))
            continue
        }
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]
            .replacingOccurrences(of: "+Inf", with: "inf")) else { throw ServeFixtures.Failure(description: "bad sample line: '\(line)'") }
        let key = String(line[..<space])
        let name = String(key.prefix { $0 != "{" })
        let family = ["_bucket", "_sum", "_count"].first(where: { name.hasSuffix($0) && typed.contains(String(name.dropLast($0.count))) })
            .map { String(name.dropLast($0.count)) } ?? name
        guard typed.contains(family) else { throw ServeFixtures.Failure(description: "sample before its TYPE: \(line)") }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }) else {
            throw ServeFixtures.Failure(description: "bad metric name: \(name)")
        }
        values[key] = value
    }
    guard text.hasSuffix("\n") else { throw ServeFixtures.Failure(description: "the exposition does not end with a line feed") }
    return values
}
