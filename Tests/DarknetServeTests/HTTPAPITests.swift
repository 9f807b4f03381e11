import Darknet
@testable import DarknetServe
import Foundation
import TestSupport
import XCTest

/// The DeepStack / CodeProject.AI API of an in-process server on 127.0.0.1: detections equal to
/// `swift-darknet detect --json`, per-request `min_confidence`, custom models and their list,
/// `/health`, `/metrics`, routing errors, the API key and the log.
final class HTTPAPITests: XCTestCase {
    func testDetectionsEqualDetectJSONForEveryImageFormat() throws {
        let formats = TestPaths.fixtures.appendingPathComponent("formats")
        let images = [ServeFixtures.photos[0], ServeFixtures.photos[3]]
            + ["bmp-24.bmp", "webp-lossy.webp", "tiff-rgb-lzw.tiff", "pnm-p6.ppm"].map { formats.appendingPathComponent($0) }
        for image in images {
            _ = try TestPaths.require(image, "run ./scripts/test.sh (it generates Fixtures/generated/formats)")
        }
        let reference = try ServeFixtures.reference(images)
        let harness = try ServerHarness()
        for image in images {
            let bytes = try [UInt8](Data(contentsOf: image))
            let reply = try postImage(port: harness.port, bytes, filename: image.lastPathComponent)
            XCTAssertEqual(reply.status, 200, reply.text)
            XCTAssertEqual(reply.headers["content-type"], "application/json")
            let json = try reply.json()
            XCTAssertEqual(json["success"] as? Bool, true)
            XCTAssertEqual(json["code"] as? Int, 200)
            let predictions = try reply.predictions()
            XCTAssertEqual(json["count"] as? Int, predictions.count)
            let inference = try XCTUnwrap(json["inferenceMs"] as? Int), process = try XCTUnwrap(json["processMs"] as? Int)
            XCTAssertTrue(inference >= 0 && inference <= process, "inferenceMs \(inference), processMs \(process)")
            let expected = try XCTUnwrap(reference[image.path])
            XCTAssertFalse(expected.isEmpty, "\(image.lastPathComponent) has detections at 0.4")
            assertSameDetections(predictions, expected, image.lastPathComponent)
            let labels = predictions.reduce(into: [String]()) { if !$0.contains($1.label) { $0.append($1.label) } }
            XCTAssertEqual(json["message"] as? String, "Found " + labels.joined(separator: ", "))
        }
    }

    func testMinConfidenceIsPerRequest() throws {
        let dog = ServeFixtures.photos[0]
        let bytes = try [UInt8](Data(contentsOf: TestPaths.require(dog)))
        let harness = try ServerHarness()
        for (field, threshold) in [("0.25", Float(0.25)), ("0.6", 0.6), ("", 0.4)] {
            let reply = try postImage(port: harness.port, bytes, fields: [("min_confidence", field)])
            XCTAssertEqual(reply.status, 200, reply.text)
            let expected = try XCTUnwrap(try ServeFixtures.reference([dog], threshold: threshold)[dog.path])
            assertSameDetections(try reply.predictions(), expected, "min_confidence '\(field)'")
        }
        let none = try postImage(port: harness.port, bytes, fields: [("min_confidence", "1")])
        XCTAssertEqual(try none.predictions().count, 0)
        XCTAssertEqual(try none.json()["message"] as? String, "No objects found")
    }

    func testCustomModelsAndTheirList() throws {
        let detector = try ServeFixtures.detector()
        let harness = try ServerHarness(models: [ServedModel(name: "tiny", detector: detector, loadSeconds: 0.5),
                                                 ServedModel(name: "coco.v2", detector: detector, loadSeconds: 0.75)])
        for method in ["POST", "GET"] {
            let list = try exchange(port: harness.port, httpRequest(method, "/v1/vision/custom/list"))
            XCTAssertEqual(list.status, 200)
            XCTAssertEqual(try list.json()["models"] as? [String], ["tiny", "coco.v2"])
            XCTAssertEqual(try list.json()["success"] as? Bool, true)
        }
        let dog = try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0])))
        let main = try postImage(port: harness.port, dog)
        for name in ["coco.v2", "tiny"] {
            let custom = try postImage(port: harness.port, dog, path: "/v1/vision/custom/\(name)")
            XCTAssertEqual(custom.status, 200, custom.text)
            XCTAssertEqual(try custom.predictions().map(\.label), try main.predictions().map(\.label))
        }
        let unknown = try postImage(port: harness.port, dog, path: "/v1/vision/custom/nope")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(try unknown.json()["success"] as? Bool, false)
        XCTAssertEqual(try unknown.json()["error"] as? String, "no model called 'nope' (models: tiny, coco.v2)")
        let metrics = try harness.metrics()
        XCTAssertEqual(metrics[#"swiftdarknet_model_load_seconds{model="coco.v2"}"#], 0.75)
        XCTAssertEqual(metrics[#"swiftdarknet_inference_duration_seconds_count{model="coco.v2",arithmetic="float32"}"#], 1)
        XCTAssertEqual(metrics[#"swiftdarknet_inference_duration_seconds_count{model="tiny",arithmetic="float32"}"#], 2)
    }

    func testProbesWhileServing() throws {
        let harness = try ServerHarness()
        let connection = try LoopbackConnection(port: harness.port)
        let probes: [(String, String, Int, String)] = [
            ("GET", "/v2/health/live", 200, ""), ("HEAD", "/v2/health/live", 200, ""), ("GET", "/v2/health/ready", 200, ""),
            ("GET", "/v1/server/status/ping", 200, #"{"success":true}"#), ("POST", "/v1/server/status/ping", 200, #"{"success":true}"#),
            ("POST", "/v2/health/ready", 405, ""),
        ]
        for (method, path, status, body) in probes {
            try connection.send(httpRequest(method, path))
            let reply = try connection.response()
            XCTAssertEqual(reply.status, status, "\(method) \(path): \(reply.text)")
            if status == 200 { XCTAssertEqual(reply.text, body, "\(method) \(path)") }
            XCTAssertNotEqual(reply.headers["connection"], "close", "\(method) \(path) keeps the connection while serving")
        }
        XCTAssertTrue(harness.waitUntilIdle())
        let metrics = try harness.metrics()
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="live",code="200"}"#], 2)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="ready",code="200"}"#], 1)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="ping",code="200"}"#], 2)
        XCTAssertTrue(harness.log.all.contains { $0.contains(" debug 127.0.0.1 \"GET /v2/health/ready\" 200") }, "probes are logged at debug")
    }

    func testHealthAndMetrics() throws {
        let harness = try ServerHarness { $0.queueCapacity = 7 }
        let health = try exchange(port: harness.port, httpRequest("GET", "/health"))
        XCTAssertEqual(health.status, 200)
        let status = try health.json()
        XCTAssertEqual(status["status"] as? String, "ok")
        XCTAssertEqual(status["models"] as? [String], ["yolov3-tiny"])
        XCTAssertEqual(status["queue_capacity"] as? Int, 7)
        XCTAssertEqual(status["workers"] as? Int, 2)
        XCTAssertEqual(status["queue_depth"] as? Int, 0)
        let dog = try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0])))
        for _ in 0..<3 { XCTAssertEqual(try postImage(port: harness.port, dog).status, 200) }
        XCTAssertEqual(try exchange(port: harness.port, httpRequest("GET", "/nowhere")).status, 404)
        XCTAssertEqual(try postImage(port: harness.port, Array("not an image".utf8)).status, 400)
        let reply = try exchange(port: harness.port, httpRequest("GET", "/metrics"))
        XCTAssertEqual(reply.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        let metrics = try parsePrometheus(reply.text)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="detection",code="200"}"#], 3)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="detection",code="400"}"#], 1)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="other",code="404"}"#], 1)
        XCTAssertEqual(metrics[#"swiftdarknet_request_errors_total{endpoint="detection",reason="bad_image"}"#], 1)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="health",code="200"}"#], 1)
        XCTAssertEqual(metrics["swiftdarknet_queue_capacity"], 7)
        XCTAssertEqual(metrics["swiftdarknet_queue_depth"], 0)
        XCTAssertEqual(metrics["swiftdarknet_workers"], 2)
        XCTAssertEqual(metrics["swiftdarknet_open_requests"], 1, "the scrape itself")
        XCTAssertEqual(metrics[#"swiftdarknet_model_load_seconds{model="yolov3-tiny"}"#], 0.25)
        XCTAssertGreaterThan(metrics["process_resident_memory_bytes"] ?? 0, 10_000_000)
        XCTAssertEqual(metrics[#"swiftdarknet_model_info{model="yolov3-tiny",arithmetic="float32"}"#], 1)
        XCTAssertGreaterThan(metrics["process_open_fds"] ?? 0, 3)
        XCTAssertTrue(reply.text.contains("# TYPE swiftdarknet_http_connections_cut_total counter\n"), "a _total is a counter")
        // Every counter ends in _total; every duration is in seconds.
        for line in reply.text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            XCTAssertEqual(parts[3] == "counter", parts[2].hasSuffix("_total"), String(line))
            if parts[3] == "histogram" { XCTAssertTrue(parts[2].hasSuffix("_seconds"), String(line)) }
        }
        // Histograms: cumulative buckets, +Inf equal to the count, a sum that fits them.
        for (name, labels, count) in [("swiftdarknet_inference_duration_seconds", #"model="yolov3-tiny",arithmetic="float32""#, 3.0),
                                      ("swiftdarknet_request_duration_seconds", #"endpoint="detection""#, 4.0)] {
            let buckets = (Histogram.bounds.map(formatNumber) + ["+Inf"]).map { metrics["\(name)_bucket{\(labels),le=\"\($0)\"}"] }
            XCTAssertFalse(buckets.contains(nil), "\(name): \(buckets)")
            let values = buckets.compactMap { $0 }
            XCTAssertEqual(values, values.sorted(), "\(name) buckets are cumulative")
            XCTAssertEqual(values.last, count)
            XCTAssertEqual(metrics["\(name)_count{\(labels)}"], count)
            XCTAssertGreaterThan(metrics["\(name)_sum{\(labels)}"] ?? 0, 0)
        }
    }

    func testRoutingErrorsAndKeepAlive() throws {
        let harness = try ServerHarness()
        let connection = try LoopbackConnection(port: harness.port)
        try connection.send(httpRequest("GET", "/v1/vision/detection"))
        let wrongMethod = try connection.response()
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.headers["allow"], "POST")
        XCTAssertEqual(try wrongMethod.json()["error"] as? String, "GET is not allowed here; use POST")
        try connection.send(httpRequest("DELETE", "/health"))
        XCTAssertEqual(try connection.response().headers["allow"], "GET, HEAD")
        try connection.send(httpRequest("GET", "/v1/vision/face"))
        let missing = try connection.response()
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(try missing.json()["error"] as? String, "no such endpoint: /v1/vision/face")
        try connection.send(httpRequest("GET", "/health"))
        XCTAssertEqual(try connection.response().status, 200, "four requests on one kept-alive connection")
    }

    func testAPIKey() throws {
        let harness = try ServerHarness { $0.apiKey = "s3cret" }
        let dog = try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0])))
        let missing = try postImage(port: harness.port, dog)
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(try missing.json()["error"] as? String, "incorrect api_key")
        XCTAssertEqual(try postImage(port: harness.port, dog, fields: [("api_key", "wrong")]).status, 401)
        XCTAssertEqual(try postImage(port: harness.port, dog, fields: [("api_key", "s3cret")]).status, 200)
    }

    func testOneLogLinePerRequestAtItsLevel() throws {
        let dog = try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0])))
        let verbose = try ServerHarness()
        XCTAssertEqual(try postImage(port: verbose.port, dog).status, 200)
        XCTAssertEqual(try postImage(port: verbose.port, []).status, 400)
        XCTAssertEqual(try exchange(port: verbose.port, httpRequest("GET", "/health")).status, 200)
        XCTAssertTrue(verbose.waitUntilIdle())
        let lines = verbose.log.all.filter { $0.contains("127.0.0.1 \"") }
        XCTAssertEqual(lines.count, 3, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains(" info 127.0.0.1 \"POST /v1/vision/detection\" 200 in=") && $0.contains("predictions=6") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains(" warning 127.0.0.1 \"POST /v1/vision/detection\" 400") && $0.contains("the file is empty") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains(" debug 127.0.0.1 \"GET /health\" 200") }, "\(lines)")

        let quiet = try ServerHarness { $0.log.level = .warning }
        XCTAssertEqual(try postImage(port: quiet.port, dog).status, 200)
        XCTAssertEqual(try postImage(port: quiet.port, Array("GIF89a".utf8)).status, 400)
        XCTAssertTrue(quiet.waitUntilIdle())
        let requestLines = quiet.log.all.filter { $0.contains("127.0.0.1 \"") }
        XCTAssertEqual(requestLines.count, 1, "\(requestLines)")
        XCTAssertTrue(requestLines.first?.contains("not a JPEG, PNG, BMP, TIFF, WebP, Netpbm or HEIF image") ?? false, "\(requestLines)")
    }
}
