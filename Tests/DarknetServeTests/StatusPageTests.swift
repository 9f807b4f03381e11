import Darknet
@testable import DarknetServe
import Foundation
import TestSupport
import XCTest

/// The status page at `/`: served by the binary alone, listing the models (with their files'
/// SHA-256), the requests and the queue; and, in Debian's headless Chromium, its form uploading
/// dog.jpg and drawing the boxes `detect --json` finds.
final class StatusPageTests: XCTestCase {
    func testStatusPageInChromium() throws {
        let chromium = try TestPaths.require(URL(fileURLWithPath: "/usr/bin/chromium"), "apt-get install chromium (scripts/setup.sh --fixtures does)")
        let photo = try TestPaths.require(ServeFixtures.photos[0])
        let (serve, port) = try ServeFixtures.startServe(["--workers", "1", "--log-level", "warning"])
        defer {
            serve.signal(SIGTERM)
            _ = serve.wait(timeout: 60)
        }
        // The checksums are computed after the server starts; the page says "computing" until then.
        let monitor = try LoopbackConnection(port: port)
        let deadline = Date() + 60
        var page = ""
        repeat {
            try monitor.send(httpRequest("GET", "/"))
            page = try monitor.response().text
            if !page.contains("computing") { break }
            usleep(50_000)
        } while Date() < deadline
        for file in [TestPaths.tinyCfg, TestPaths.tinyWeights] {
            let sum = try ChildProcess.run("/usr/bin/sha256sum", [file.path], timeout: 60)
            let digest = try XCTUnwrap(sum.stdout.split(separator: " ").first.map(String.init))
            XCTAssertTrue(page.contains("<code>\(digest)</code>"), "\(file.lastPathComponent)'s SHA-256 \(digest) on the page")
        }

        let directory = try temporaryDirectory("browser")
        let line = try XCTUnwrap(try ServeFixtures.runClient("status_page_browser.py", [chromium.path, "http://127.0.0.1:\(port)/", photo.path,
                                                                                       directory.path]).first)
        XCTAssertEqual(line["title"] as? String, "swift-darknet serve")
        XCTAssertEqual(line["state"] as? String, "serving")
        XCTAssertTrue((line["models"] as? String ?? "").contains("yolov3-tiny\t416 × 416 × 3\t80\tfloat32"), "\(line["models"] ?? "")")
        XCTAssertEqual(line["canvas"] as? [Int], [768, 576], "the photo drawn at its own size")
        let reference = try XCTUnwrap(try ServeFixtures.reference([photo])[photo.path]).sorted { $0.probability > $1.probability }
        XCTAssertEqual(line["boxes"] as? String, String(reference.count))
        XCTAssertTrue((line["status"] as? String ?? "").hasPrefix("\(reference.count) detections, "), "\(line["status"] ?? "")")
        let items = try XCTUnwrap(line["items"] as? [[String: String]])
        // Listed highest first, as detect --json finds them (ties of equal printed probability either way).
        XCTAssertEqual(Set(items.compactMap { $0["text"] }),
                       Set(reference.map { "\($0.label) \(String(format: "%.2f", $0.probability)) [\($0.left), \($0.top), \($0.right), \($0.bottom)]" }))
        // Drawn: the middle of each box's bottom edge has the colour of the last box drawn there.
        for (index, item) in items.enumerated() {
            let box = item["text"]?.split(separator: "[").last
            let last = items.indices.last { $0 >= index && items[$0]["text"]?.split(separator: "[").last == box } ?? index
            XCTAssertEqual(item["pixel"], items[last]["color"], "\(item)")
        }
        let screenshot = try XCTUnwrap(line["small_screenshot"] as? String)
        let bytes = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: screenshot)[.size] as? Int)
        XCTAssertGreaterThan(bytes, 10_000, "a screenshot with the photo in it")
    }

    func testThePageNeedsNothingButTheServer() throws {
        let harness = try ServerHarness(models: [ServedModel(name: "yolov3-tiny", detector: try ServeFixtures.detector(), loadSeconds: 0.25)]) {
            $0.apiKey = "secret"
        }
        let dog = try [UInt8](Data(contentsOf: TestPaths.require(ServeFixtures.photos[0])))
        var form = MultipartBody()
        form.file("image", dog)
        form.field("api_key", "secret")
        for _ in 0..<2 {
            XCTAssertEqual(try exchange(port: harness.port, httpRequest("POST", "/v1/vision/detection", contentType: form.contentType, body: form.finished)).status, 200)
        }
        let reply = try exchange(port: harness.port, httpRequest("GET", "/"))
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-type"], "text/html; charset=utf-8")
        let page = reply.text
        XCTAssertTrue(page.contains(#"<tr><td>detection</td><td>2</td><td>0</td>"#), page)
        XCTAssertTrue(page.contains(#"<tr><td>yolov3-tiny</td><td>416 × 416 × 3</td><td>80</td><td>float32</td><td>0.25 s</td><td>—</td></tr>"#), page)
        XCTAssertTrue(page.contains(#"<input type="password" name="api_key">"#), "the form asks for the key the server needs")
        XCTAssertTrue(page.contains(#"<span id="queue">0 of 16</span>"#))
        for external in ["http://", "https://", "src=", "@import", "url("] {
            XCTAssertFalse(page.contains(external), "the page loads nothing else: \(external)")
        }
        XCTAssertEqual(try exchange(port: harness.port, httpRequest("POST", "/")).status, 405)
        XCTAssertEqual(StatusPage.escape(#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        XCTAssertEqual(StatusPage.duration(93_784), "1 d 2 h")
        XCTAssertEqual(StatusPage.duration(125), "2 min 5 s")
    }
}
