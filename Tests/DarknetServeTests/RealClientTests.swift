import Darknet
@testable import DarknetServe
import Foundation
import TestSupport
import XCTest

/// The clients NVR users already run, against an in-process server on 127.0.0.1: deepstack-python
/// from PyPI, Frigate's DeepStack plugin (its request and its walk over the response), and
/// Frigate's ZMQ detector (pyzmq, REQ, two frames). Each gets `swift-darknet detect --json`'s
/// detections for the same pixels.
final class RealClientTests: XCTestCase {
    func testDeepstackPython() throws {
        let photos = try ServeFixtures.photos.map { try TestPaths.require($0) }
        let reference = try ServeFixtures.reference(photos)
        let detector = try ServeFixtures.detector()
        let harness = try ServerHarness(models: [ServedModel(name: "yolov3-tiny", detector: detector, loadSeconds: 0.2),
                                                 ServedModel(name: "mine", detector: detector, loadSeconds: 0.2)])
        for arguments in [[String](), ["--custom", "mine"]] {
            let lines = try ServeFixtures.runClient("deepstack_client.py", [String(harness.port)] + arguments + photos.map(\.path))
            XCTAssertEqual(lines.count, photos.count)
            for line in lines {
                let image = try XCTUnwrap(line["image"] as? String)
                guard let predictions = line["predictions"] as? [[String: Any]] else { XCTFail("\(line)"); continue }
                let served = try predictions.map { p in
                    (label: try XCTUnwrap(p["label"] as? String), confidence: try XCTUnwrap(p["confidence"] as? Double),
                     left: try XCTUnwrap(p["x_min"] as? Int), top: try XCTUnwrap(p["y_min"] as? Int),
                     right: try XCTUnwrap(p["x_max"] as? Int), bottom: try XCTUnwrap(p["y_max"] as? Int))
                }
                assertSameDetections(served, try XCTUnwrap(reference[image]), "deepstack-python \(arguments) \(image)")
            }
        }
        XCTAssertEqual(try harness.metrics()[#"swiftdarknet_requests_total{endpoint="custom",code="200"}"#], 7)
    }

    func testFrigateDeepstackPluginWalk() throws {
        let harness = try ServerHarness()
        let labels = try ServeFixtures.detector().labels
        for photo in [ServeFixtures.photos[0], ServeFixtures.photos[4]] {
            let directory = try temporaryDirectory("clients")
            let line = try XCTUnwrap(try ServeFixtures.runClient("frigate_deepstack_replay.py", [String(harness.port), TestPaths.require(TestPaths.cocoNames).path,
                                                                              try TestPaths.require(photo).path, "416", directory.path]).first)
            let rows = try XCTUnwrap(line["detections"] as? [[Double]], "\(line)")
            let jpeg = try XCTUnwrap(line["jpeg"] as? String)
            let (width, height) = (try XCTUnwrap(line["width"] as? Int), try XCTUnwrap(line["height"] as? Int))
            // The plugin's walk over detect --json's detections of the same JPEG, highest first.
            let reference = try XCTUnwrap(try ServeFixtures.reference([URL(fileURLWithPath: jpeg)])[jpeg])
            var expected: [[Double]] = []
            for d in reference.sorted(by: { $0.probability > $1.probability }) {
                guard d.probability >= 0.4, let index = labels.firstIndex(of: d.label == "truck" ? "car" : d.label) else { break }
                expected.append([Double(index), d.probability, Double(d.top) / Double(height), Double(d.left) / Double(width),
                                 Double(d.bottom) / Double(height), Double(d.right) / Double(width)])
            }
            XCTAssertFalse(expected.isEmpty, "\(photo.lastPathComponent) has detections")
            XCTAssertEqual(rows.count, 20)
            XCTAssertEqual(Array(rows.dropFirst(expected.count)), [[Double]](repeating: [0, 0, 0, 0, 0, 0], count: 20 - expected.count))
            for (row, wanted) in zip(rows, expected) {
                XCTAssertEqual(row[0], wanted[0], "\(photo.lastPathComponent): \(rows.prefix(expected.count)) vs \(expected)")
                for column in 1..<6 { XCTAssertEqual(row[column], wanted[column], accuracy: 5e-5, "\(photo.lastPathComponent) column \(column)") }
            }
        }
    }

    func testFrigateZMQDetector() throws {
        let directory = try temporaryDirectory("clients")
        let socket = "ipc://\(directory.path)/zmq_detector"
        let harness = try ServerHarness { $0.zmqEndpoint = socket }
        XCTAssertEqual(harness.server.zmqEndpoint, socket)
        let lines = try ServeFixtures.runClient("frigate_zmq_client.py", [socket, try TestPaths.require(ServeFixtures.photos[0]).path, "416", directory.path])
        let byName = Dictionary(uniqueKeysWithValues: lines.map { ($0["name"] as? String ?? "?", $0) })
        XCTAssertEqual(lines.count, 11)
        let pngs = [directory.appendingPathComponent("square.png"), directory.appendingPathComponent("wide.png")]
        let reference = try ServeFixtures.reference(pngs)
        for name in ["nhwc", "nchw", "float32", "letterboxed", "nhwc again"] {
            let line = try XCTUnwrap(byName[name], name)
            XCTAssertEqual(line["header"] as? String, #"{"shape": [20, 6], "dtype": "float32"}"#, name)
            let rows = try XCTUnwrap(line["detections"] as? [[Double]], "\(name): \(line)")
            let png = try XCTUnwrap(line["png"] as? String)
            let (width, height) = png.hasSuffix("wide.png") ? (300.0, 200.0) : (416.0, 416.0)
            assertSameFrigateRows(rows, try XCTUnwrap(reference[png]), width: width, height: height, name)
        }
        let refusals = ["bad dtype": "\"dtype\" 'int16' is not read", "bad shape": "is not a 3-channel image",
                        "bad byte count": "frame 2 (tensor): 519167 bytes; the header's shape and dtype need 519168",
                        "bad header": "frame 1 (header): not a JSON object", "one frame": "the request has 1 frame(s)",
                        "three frames": "the request has 3 frame(s)"]
        for (name, message) in refusals {
            let line = try XCTUnwrap(byName[name], name)
            XCTAssertNil(line["detections"] as? [[Double]], "\(name): Frigate reads no detections from an error reply")
            XCTAssertEqual(line["frames"] as? Int, 2)
            let header = try XCTUnwrap(line["header"] as? String)
            let error = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: String])["error"]
            XCTAssertTrue(error?.contains(message) ?? false, "\(name): \(header)")
        }
        let metrics = try harness.metrics()
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="zmq",code="200"}"#], 5)
        XCTAssertEqual(metrics[#"swiftdarknet_requests_total{endpoint="zmq",code="400"}"#], 6)
        XCTAssertTrue(harness.waitUntilIdle())
    }
}
