import Darknet
@testable import DarknetServe
import Foundation
import TestSupport
import XCTest

/// Bad input and too much of it: each bad request gets an error response or a closed connection,
/// the server keeps serving others, and nothing is held for a request that went away.
final class ServerLimitsTests: XCTestCase {
    private var dog: [UInt8] { get throws { try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0]))) } }

    private func assertStillServes(_ harness: ServerHarness, file: StaticString = #filePath, line: UInt = #line) throws {
        let reply = try postImage(port: harness.port, try dog)
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        XCTAssertEqual(try reply.predictions().count, 6, file: file, line: line)
        XCTAssertTrue(harness.waitUntilIdle(), "requests left open: \(harness.server.openRequests)", file: file, line: line)
    }

    func testBadRequestsGetErrors() throws {
        let harness = try ServerHarness()
        let dog = try dog
        var form = MultipartBody()
        form.file("image", dog)
        let cases: [(String, [UInt8], Int, String)] = [
            ("JSON body", httpRequest("POST", "/v1/vision/detection", contentType: "application/json", body: Array(#"{"image": "x"}"#.utf8)),
             415, "Content-Type 'application/json': expected multipart/form-data with an 'image' file field"),
            ("no Content-Type", httpRequest("POST", "/v1/vision/detection", body: dog), 415, "the request has no Content-Type"),
            ("no image field", { var f = MultipartBody(); f.field("api_key", ""); return httpRequest("POST", "/v1/vision/detection",
                                                                                                        contentType: f.contentType, body: f.finished) }(),
             400, "the form has no 'image' file field (its fields: api_key)"),
            ("empty image", { var f = MultipartBody(); f.file("image", filename: "e.jpg", []); return httpRequest("POST", "/v1/vision/detection",
                                                                                                                  contentType: f.contentType, body: f.finished) }(),
             400, "form field 'image': 'e.jpg' is not an image file (the file is empty)"),
            ("truncated JPEG", { var f = MultipartBody(); f.file("image", filename: "cut.jpg", Array(dog.prefix(20_000)))
                                 return httpRequest("POST", "/v1/vision/detection", contentType: f.contentType, body: f.finished) }(),
             400, "the 'image' file 'cut.jpg' (20000 bytes): damaged image data"),
            ("not an image", { var f = MultipartBody(); f.file("image", filename: "notes.txt", Array("hello".utf8))
                               return httpRequest("POST", "/v1/vision/detection", contentType: f.contentType, body: f.finished) }(),
             400, "the 'image' file 'notes.txt' (5 bytes): not a JPEG, PNG, BMP, TIFF, WebP, Netpbm or HEIF image"),
            ("cut multipart", httpRequest("POST", "/v1/vision/detection", contentType: form.contentType, body: Array(form.finished.dropLast(30))),
             400, "multipart body, byte offset \(form.finished.count - 30): expected the boundary"),
        ]
        for (name, request, status, message) in cases {
            let reply = try exchange(port: harness.port, request)
            XCTAssertEqual(reply.status, status, "\(name): \(reply.text)")
            let json = try reply.json()
            XCTAssertEqual(json["success"] as? Bool, false, name)
            XCTAssertEqual(json["code"] as? Int, status, name)
            XCTAssertTrue((json["error"] as? String)?.hasPrefix(message) ?? false, "\(name): \(json["error"] ?? "no error")")
        }
        try assertStillServes(harness)
    }

    func testHundredMegabyteUploadIs413BeforeItsBody() throws {
        let harness = try ServerHarness()
        let before = try harness.metrics()["process_resident_memory_bytes"] ?? 0
        let connection = try LoopbackConnection(port: harness.port, timeout: 10)
        try connection.send("POST /v1/vision/detection HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
                            + "Content-Length: 104857600\r\n\r\n")
        let reply = try connection.response()
        XCTAssertEqual(reply.status, 413)
        XCTAssertEqual(try reply.json()["error"] as? String, "the upload is 104857600 bytes, more than the server's limit of 16777216")
        // The server does not read the body: sending it fails long before 100 MB.
        var sent = 0
        let chunk = [UInt8](repeating: 0x41, count: 1 << 20)
        while sent < 100 << 20, (try? connection.send(chunk)) != nil { sent += chunk.count }
        XCTAssertLessThan(sent, 100 << 20, "the server read a 100 MB body it had refused")
        try assertStillServes(harness)
        let after = try harness.metrics()["process_resident_memory_bytes"] ?? 0
        XCTAssertLessThan(after - before, 50_000_000, "resident memory grew by \(after - before) bytes")
    }

    func testChunkedUploadPastTheLimitIsCutOff() throws {
        let harness = try ServerHarness { $0.maxUploadBytes = 1 << 20 }
        let connection = try LoopbackConnection(port: harness.port, timeout: 10)
        try connection.send("POST /v1/vision/detection HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x41, count: 0x10000) + Array("\r\n".utf8)
        for _ in 0..<40 { if (try? connection.send(chunk)) == nil { break } }
        XCTAssertTrue(connection.isClosedByServer(), "a body past --max-upload closes the connection")
        XCTAssertTrue(harness.waitUntilIdle())
        XCTAssertEqual(try harness.metrics()[#"swiftdarknet_request_errors_total{endpoint="detection",reason="upload_too_large"}"#], 1)
        try assertStillServes(harness)
    }

    func testClientsLeavingMidUploadOrMidResponse() throws {
        let harness = try ServerHarness()
        let dog = try dog
        var form = MultipartBody()
        form.file("image", dog)
        let request = httpRequest("POST", "/v1/vision/detection", contentType: form.contentType, body: form.finished)
        for reset in [false, true] {
            let midUpload = try LoopbackConnection(port: harness.port)
            try midUpload.send(Array(request.prefix(20_000)))
            usleep(50_000)
            midUpload.close(reset: reset)
            let midResponse = try LoopbackConnection(port: harness.port)
            try midResponse.send(request)
            usleep(5_000)
            midResponse.close(reset: reset)
        }
        XCTAssertTrue(harness.waitUntilIdle(), "requests left open: \(harness.server.openRequests)")
        let metrics = try harness.metrics()
        // The two that left mid-upload are gone for sure; a response written before the server
        // saw the other two leave counts as sent.
        let gone = metrics[#"swiftdarknet_request_errors_total{endpoint="detection",reason="client_gone"}"#] ?? 0
        let sent = metrics[#"swiftdarknet_requests_total{endpoint="detection",code="200"}"#] ?? 0
        XCTAssertGreaterThanOrEqual(gone, 2, "\(metrics.filter { $0.key.contains("errors") })")
        XCTAssertEqual(gone + sent, 4, "every request ended as sent or gone")
        XCTAssertEqual(metrics["swiftdarknet_queue_depth"], 0)
        XCTAssertEqual(metrics["swiftdarknet_inflight_requests"], 0)
        try assertStillServes(harness)
    }

    func testSlowLorisConnectionsAreCutWhileOthersAreServed() throws {
        let harness = try ServerHarness {
            $0.requestTimeout = .seconds(1)
            $0.connectionLimit = 16
        }
        let slow = try (0..<6).map { _ in try LoopbackConnection(port: harness.port, timeout: 5) }
        let header = Array("POST /v1/vision/detection HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 200)
        let start = Date()
        var index = 0
        // One byte per connection every 50 ms: never idle long enough for the idle timeout.
        while Date().timeIntervalSince(start) < 0.5, index < header.count {
            for connection in slow { try? connection.send([header[index]]) }
            index += 1
            usleep(50_000)
        }
        try assertStillServes(harness)
        while Date().timeIntervalSince(start) < 2.5, index < header.count {
            for connection in slow { try? connection.send([header[index]]) }
            index += 1
            usleep(50_000)
        }
        for connection in slow { XCTAssertTrue(connection.isClosedByServer(), "a slow-loris connection is still open after 2.5 s") }
        XCTAssertEqual(try harness.metrics()["swiftdarknet_http_connections_cut_total"], 6)
        try assertStillServes(harness)
    }

    func testConnectionCap() throws {
        let harness = try ServerHarness {
            $0.connectionLimit = 4
            $0.requestTimeout = .milliseconds(1500)
        }
        let idle = try (0..<4).map { _ in try LoopbackConnection(port: harness.port, timeout: 5) }
        usleep(100_000)
        // A fifth waits in the listen backlog, unanswered, until the watchdog frees a slot.
        let waiting = try LoopbackConnection(port: harness.port, timeout: 0.7)
        try waiting.send(httpRequest("GET", "/health"))
        XCTAssertThrowsError(try waiting.response(), "answered while 4 connections were open")
        waiting.setTimeout(5)
        XCTAssertEqual(try waiting.response().status, 200)
        for connection in idle { XCTAssertTrue(connection.isClosedByServer(), "an idle connection is cut at the request timeout") }
        try assertStillServes(harness)
    }

    func testFullQueueAnswers503WithRetryAfter() throws {
        let harness = try ServerHarness {
            $0.workers = 1
            $0.queueCapacity = 1
        }
        var form = MultipartBody()
        form.file("image", try dog)
        let request = httpRequest("POST", "/v1/vision/detection", contentType: form.contentType, body: form.finished)
        let connections = try (0..<6).map { _ in try LoopbackConnection(port: harness.port) }
        for connection in connections { try connection.send(request) }
        let replies = try connections.map { try $0.response() }
        let busy = replies.filter { $0.status == 503 }
        XCTAssertEqual(replies.filter { $0.status == 200 }.count + busy.count, 6, "\(replies.map(\.status))")
        XCTAssertGreaterThanOrEqual(replies.filter { $0.status == 200 }.count, 2, "one running, one queued: \(replies.map(\.status))")
        XCTAssertGreaterThanOrEqual(busy.count, 3, "\(replies.map(\.status))")
        for reply in busy {
            XCTAssertEqual(reply.headers["retry-after"], "1")
            XCTAssertEqual(try reply.json()["error"] as? String, "the server is busy: 1 requests already wait for a worker; retry shortly")
        }
        let metrics = try harness.metrics()
        XCTAssertEqual(metrics[#"swiftdarknet_request_errors_total{endpoint="detection",reason="queue_full"}"#], Double(busy.count))
        try assertStillServes(harness)
    }
}
