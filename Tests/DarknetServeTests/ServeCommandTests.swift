import Foundation
import TestSupport
import XCTest

/// `swift-darknet serve` as a process: it prints where it listens, finishes the requests in
/// flight on SIGTERM and exits 0, logs one line per request, and refuses bad options.
final class ServeCommandTests: XCTestCase {
    func testSIGTERMFinishesTheRequestsInFlightAndExitsZero() throws {
        try ServeFixtures.withServe(["--workers", "1", "--queue", "8", "--log-level", "info"]) { serve, port in
            var form = MultipartBody()
            form.file("image", try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0]))))
            let request = httpRequest("POST", "/v1/vision/detection", contentType: form.contentType, body: form.finished)
            let monitor = try LoopbackConnection(port: port)
            let connections = try (0..<3).map { _ in try LoopbackConnection(port: port) }
            for connection in connections { try connection.send(request) }
            _ = try poll("/metrics", on: monitor, port: port, until: "the three requests are in") { reply in
                let metrics = try parsePrometheus(reply.text)
                // Open ones, less this /metrics request, and those already answered.
                let answered = metrics[#"swiftdarknet_requests_total{endpoint="detection",code="200"}"#] ?? 0
                return (metrics["swiftdarknet_open_requests"] ?? 0) - 1 + answered >= 3
            }
            serve.signal(SIGTERM)
            for (index, connection) in connections.enumerated() {
                let reply = try connection.response()
                XCTAssertEqual(reply.status, 200, "request \(index) in flight at SIGTERM: \(reply.text)")
                XCTAssertEqual(try reply.predictions().count, 6)
            }
            let result = serve.wait(timeout: 60)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertThrowsError(try LoopbackConnection(port: port, timeout: 1), "still listening after exit")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.filter { $0.contains(" info 127.0.0.1 \"POST /v1/vision/detection\" 200 ") }.count, 3, result.stderr)
            XCTAssertTrue(lines.contains { $0.hasSuffix("info SIGTERM: finishing the requests in progress") }, result.stderr)
            XCTAssertTrue(lines.last?.hasSuffix("info stopped") ?? false, result.stderr)
        }
    }

    /// A SIGTERM the kernel hands to a thread a library started before `serve` blocked the stop
    /// signals (OpenBLAS's server thread) drains as one taken by the main thread does: that
    /// happens whenever the main thread is not waiting at that moment (a loaded machine), and
    /// once ended the process at once, its connections closed unanswered. `kill(2)` with a
    /// thread's ID offers the signal to that thread first.
    func testStopSignalOnALibraryThreadStillDrains() throws {
        try ServeFixtures.withServe(["--workers", "1", "--log-level", "info"]) { serve, _ in
            let pid = serve.processIdentifier
            let unblocked = try threads(of: pid).filter { try $0 != pid && !blocksSIGTERM(thread: $0, of: pid) }
            guard let thread = unblocked.first else {
                print("serve has no thread but the main one that leaves SIGTERM unblocked here: the forwarding was not exercised")
                serve.signal(SIGTERM)
                XCTAssertEqual(serve.wait(timeout: 60).status, 0)
                return
            }
            kill(thread, SIGTERM)
            let result = serve.wait(timeout: 60)
            XCTAssertEqual(result.endDescription, "exit status 0", result.stderr)
            XCTAssertTrue(result.stderr.contains("info SIGTERM: finishing the requests in progress"), result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("info stopped\n"), result.stderr)
        }
    }

    private func threads(of pid: Int32) throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").compactMap { Int32($0) }
    }

    private func blocksSIGTERM(thread: Int32, of pid: Int32) throws -> Bool {
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
        let mask = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }?.split(separator: "\t").last
            .flatMap { UInt64($0, radix: 16) })
        return mask & (1 << UInt64(SIGTERM - 1)) != 0
    }

    func testHealthReportsDrainingWhileRequestsFinish() throws {
        try ServeFixtures.withServe(["--workers", "1", "--log-level", "none"]) { serve, port in
            let keptAlive = try LoopbackConnection(port: port)
            try keptAlive.send(httpRequest("GET", "/health"))
            XCTAssertEqual(try keptAlive.response().status, 200)
            // A request still uploading at SIGTERM holds the drain open until the test finishes it.
            let (uploading, rest) = try halfSentUpload(port: port, keptAlive: keptAlive)
            serve.signal(SIGTERM)
            let draining = try poll("/health", on: keptAlive, port: port, until: "/health reports the drain") { $0.status != 200 }
            XCTAssertEqual(draining.status, 503)
            XCTAssertEqual(try draining.json()["status"] as? String, "draining")
            XCTAssertEqual(draining.headers["connection"], "close")
            try uploading.send(rest)
            let finished = try uploading.response()
            XCTAssertEqual(finished.status, 200, "a request begun before SIGTERM is answered: \(finished.text)")
            XCTAssertEqual(try finished.predictions().count, 6)
            XCTAssertEqual(serve.wait(timeout: 60).status, 0)
            XCTAssertEqual(serve.stderr, "", "--log-level none logs nothing")
        }
    }

    func testFreshConnectionsDuringADrainAreAnsweredAtOnce() throws {
        try ServeFixtures.withServe(["--workers", "1", "--log-level", "info"]) { serve, port in
            let (uploading, rest) = try halfSentUpload(port: port, keptAlive: try LoopbackConnection(port: port))
            serve.signal(SIGTERM)
            usleep(300_000)
            // Each on a connection of its own, as a balancer's health check or a new client opens one.
            let detectionHeaders = Array("POST /v1/vision/detection HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n".utf8)
            let probes: [(String, [UInt8], Int)] = [
                ("readiness", httpRequest("GET", "/v2/health/ready"), 503), ("liveness", httpRequest("GET", "/v2/health/live"), 200),
                ("ping", httpRequest("GET", "/v1/server/status/ping"), 503), ("health", httpRequest("GET", "/health"), 503),
                ("detection", detectionHeaders, 503),
            ]
            var slowest = 0.0
            for round in 0..<5 {
                for (name, bytes, status) in probes {
                    let start = Date()
                    let fresh = try LoopbackConnection(port: port, timeout: 5)
                    try fresh.send(bytes)
                    let reply = try fresh.response()
                    let seconds = Date().timeIntervalSince(start)
                    slowest = max(slowest, seconds)
                    XCTAssertLessThan(seconds, 0.1, "\(name) round \(round): answered in \(Int(seconds * 1000)) ms")
                    XCTAssertEqual(reply.status, status, "\(name) during the drain: \(reply.text)")
                    XCTAssertEqual(reply.headers["connection"], "close", name)
                    if status == 503 { XCTAssertEqual(reply.headers["retry-after"], "1", name) }
                    XCTAssertTrue(fresh.isClosedByServer(), "\(name): the server closes the connection")
                }
            }
            try uploading.send(rest)
            let finished = try uploading.response()
            XCTAssertEqual(finished.status, 200, "the upload begun before SIGTERM is answered: \(finished.text)")
            XCTAssertEqual(try finished.predictions().count, 6)
            let result = serve.wait(timeout: 60)
            XCTAssertEqual(result.status, 0, result.stderr)
            // The upload, and perhaps the test's last /metrics poll: its reply has reached the test,
            // but the server counts a request open until it has finished sending it.
            XCTAssertTrue(result.stderr.contains("info draining: 1 open request (0 waiting for a worker, 0 running")
                          || result.stderr.contains("info draining: 2 open requests (0 waiting for a worker, 0 running"), result.stderr)
            print("slowest answer on a fresh connection during the drain: \(String(format: "%.1f", slowest * 1000)) ms")
        }
    }

    /// A detection of dog.jpg sent halfway on a connection of its own, once the server counts it
    /// open (polled on `keptAlive`): it holds a drain open until the test sends `rest`.
    private func halfSentUpload(port: Int, keptAlive: LoopbackConnection) throws -> (connection: LoopbackConnection, rest: [UInt8]) {
        var form = MultipartBody()
        form.file("image", try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0]))))
        let request = httpRequest("POST", "/v1/vision/detection", contentType: form.contentType, body: form.finished)
        let half = request.count / 2
        let uploading = try LoopbackConnection(port: port)
        try uploading.send(Array(request[..<half]))
        _ = try poll("/metrics", on: keptAlive, port: port, until: "the upload is a request in progress") {
            // The /metrics request itself is the other one open.
            try parsePrometheus($0.text)["swiftdarknet_open_requests"] == 2
        }
        return (uploading, Array(request[half...]))
    }

    /// GETs `path` on `connection` every millisecond until `condition` holds for the reply, and
    /// returns that reply; throws naming `what` after 30 s. Where a reply says `Connection: close`
    /// the next GET goes on a new connection to `port`, as a client's would: a reply begun just
    /// before SIGTERM is still a 200, but sent once the drain has begun it closes its connection.
    private func poll(_ path: String, on connection: LoopbackConnection, port: Int, until what: String,
                      _ condition: (HTTPReply) throws -> Bool) throws -> HTTPReply {
        let deadline = Date() + 30
        var connection = connection
        while Date() < deadline {
            try connection.send(httpRequest("GET", path))
            let reply = try connection.response()
            if try condition(reply) { return reply }
            if reply.headers["connection"] == "close" { connection = try LoopbackConnection(port: port) }
            usleep(1_000)
        }
        throw ServeFixtures.Failure(description: "waited 30 s for \(what)")
    }

    func testUsageMistakesAndStartFailures() throws {
        let model = try TestPaths.tinyModelArguments()
        let mistakes: [([String], String)] = [
            (["--model", "bad name=a.cfg,b.weights"], "--model 'bad name=a.cfg,b.weights': the name must be letters"),
            (["--model", "x=a.cfg"], "expected NAME=CFG,WEIGHTS,NAMES"),
            (["--zmq-pixel-format", "yuv"], "--zmq-pixel-format must be rgb or bgr, got 'yuv'"),
            (["--zmq-float-range", "2"], "--zmq-float-range must be 1 or 255, got '2'"),
            (["--log-level", "loud"], "--log-level must be one of debug, info, warning, error, none, got 'loud'"),
            (["--queue", "-1"], "--queue must be an integer"),
            (["photo.jpg"], "serve takes no positional arguments, got 'photo.jpg'"),
        ]
        for (arguments, message) in mistakes {
            let result = try SwiftDarknetTool.run(["serve"] + model + arguments, timeout: 60)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let (first, port) = try ServeFixtures.startServe(["--log-level", "none"])
        let taken = try SwiftDarknetTool.run(["serve"] + model + ["--port", String(port)], timeout: 120)
        XCTAssertEqual(taken.status, 1)
        XCTAssertTrue(taken.stderr.contains("cannot serve HTTP on 127.0.0.1:\(port): the address is in use"), taken.stderr)
        let badZMQ = try SwiftDarknetTool.run(["serve"] + model + ["--port", "0", "--zmq", "ipc:///nonexistent-folder/zmq_detector"],
                                              timeout: 120)
        XCTAssertEqual(badZMQ.status, 1)
        XCTAssertTrue(badZMQ.stderr.contains("cannot bind the ZMQ endpoint ipc:///nonexistent-folder/zmq_detector"), badZMQ.stderr)
        first.signal(SIGTERM)
        XCTAssertEqual(first.wait(timeout: 60).status, 0)
    }
}
