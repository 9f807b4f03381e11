import Darknet
@testable import DarknetServe
import Foundation
import TestSupport
import XCTest

/// Frigate's ZMQ detector as Frigate runs it today (`frigate_zmq_plugin_steps.py`, pyzmq): the
/// model handshake (the served model named by its weights file, or a bundle transferred, saved
/// and found again by the next server), tensors answered as `detect` answers the same pixels, a
/// timeout that resets the socket and a second handshake; transfers the server refuses.
final class FrigateHandshakeTests: XCTestCase {
    /// The served YOLOv3-tiny with the files it came from.
    private func tinyModel() throws -> ServedModel {
        ServedModel(name: "yolov3-tiny", detector: try ServeFixtures.detector(), loadSeconds: 0.25,
                    files: ServedModel.Files(cfg: try TestPaths.require(TestPaths.tinyCfg), weights: try TestPaths.require(TestPaths.tinyWeights),
                                             names: try TestPaths.require(TestPaths.cocoNames)))
    }

    /// Runs the plugin's steps against `endpoint` with `modelPath`; the lines by step.
    private func runPlugin(_ endpoint: String, modelPath: String, directory: URL, handshakeMilliseconds: Int = 30_000) throws -> [String: [String: Any]] {
        let lines = try ServeFixtures.runClient("frigate_zmq_plugin_steps.py", [
            endpoint, modelPath, try TestPaths.require(ServeFixtures.photos[0]).path, "416", directory.path,
            String(handshakeMilliseconds), "60000",
        ])
        return Dictionary(lines.map { ($0["step"] as? String ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The handshake's replies (one per message sent) and whether the plugin is ready.
    private func replies(_ line: [String: Any]?) throws -> (replies: [[String: Any]], ready: Bool) {
        let line = try XCTUnwrap(line)
        return (try XCTUnwrap(line["replies"] as? [[String: Any]]), try XCTUnwrap(line["ready"] as? Bool))
    }

    /// Checks both tensors' replies against `detect --json` on the tensor's pixels.
    private func assertDetections(_ steps: [String: [String: Any]], directory: URL, _ context: String) throws {
        let png = directory.appendingPathComponent("tensor.png")
        let reference = try XCTUnwrap(try ServeFixtures.reference([png])[png.path])
        for step in ["tensor", "tensor after reset"] {
            let rows = try XCTUnwrap(steps[step]?["detections"] as? [[Double]], "\(context) \(step): \(steps[step] ?? [:])")
            assertSameFrigateRows(rows, reference, width: 416, height: 416, "\(context) \(step)")
        }
        XCTAssertEqual(steps["timeout"]?["timed_out"] as? Bool, true, "\(context): a 1 ms timeout resets the socket")
    }

    func testServedModelNamedByItsWeightsFile() throws {
        let directory = try temporaryDirectory("frigate")
        let socket = "ipc://\(directory.path)/zmq_detector"
        let harness = try ServerHarness(models: [try tinyModel()]) { $0.zmqEndpoint = socket }
        let steps = try runPlugin(socket, modelPath: "/config/model_cache/yolov3-tiny.weights", directory: directory)
        for step in ["handshake", "handshake after reset"] {
            let (replies, ready) = try replies(steps[step])
            XCTAssertTrue(ready, "\(step): \(replies)")
            XCTAssertEqual(replies.count, 1, "\(step): a served model needs no transfer")
            XCTAssertEqual(replies.first?["model_available"] as? Bool, true)
            XCTAssertEqual(replies.first?["model_loaded"] as? Bool, true)
        }
        try assertDetections(steps, directory: directory, "served")
        XCTAssertTrue(harness.waitUntilIdle())
        let handshakes = harness.log.all.filter { $0.contains("\"zmq model_request yolov3-tiny.weights\" 200") }
        XCTAssertEqual(handshakes.count, 2, harness.log.all.joined(separator: "\n"))
    }

    func testBundleTransferredSavedAndFoundByTheNextServer() throws {
        let directory = try temporaryDirectory("frigate")
        let models = directory.appendingPathComponent("models")
        let bundle = try Self.makeBundle(in: directory)
        let socket = "ipc://\(directory.path)/zmq_detector"
        do {
            let harness = try ServerHarness(models: [try tinyModel()]) {
                $0.zmqEndpoint = socket
                $0.zmqModelDirectory = models
                $0.maxUploadBytes = 64 << 20
            }
            let steps = try runPlugin(socket, modelPath: bundle.path, directory: directory)
            let (first, ready) = try replies(steps["handshake"])
            XCTAssertTrue(ready, "\(first)")
            XCTAssertEqual(first.count, 2, "model_request, then model_data")
            XCTAssertEqual(first.first?["model_available"] as? Bool, false)
            XCTAssertEqual(first.last?["model_saved"] as? Bool, true)
            XCTAssertEqual(first.last?["model_loaded"] as? Bool, true)
            let (again, readyAgain) = try replies(steps["handshake after reset"])
            XCTAssertTrue(readyAgain)
            XCTAssertEqual(again.count, 1, "the second handshake finds the transferred model: \(again)")
            try assertDetections(steps, directory: directory, "transferred")
            XCTAssertEqual(try Data(contentsOf: models.appendingPathComponent("tiny.tar")), try Data(contentsOf: bundle), "saved as sent")
            XCTAssertTrue(harness.waitUntilIdle())
            // The request that timed out was still detected in (its reply went to the closed socket);
            // it may still sit in the server's ZMQ socket when the server first looks idle.
            let detected = #"swiftdarknet_inference_duration_seconds_count{model="tiny.tar",arithmetic="float32"}"#
            let deadline = Date().addingTimeInterval(10)
            while try harness.metrics()[detected] != 3, Date() < deadline { usleep(20_000) }
            XCTAssertEqual(try harness.metrics()[detected], 3)
        }
        // A new server (a restart) loads the saved bundle when Frigate asks for it.
        let harness = try ServerHarness(models: [try tinyModel()]) {
            $0.zmqEndpoint = socket
            $0.zmqModelDirectory = models
        }
        let steps = try runPlugin(socket, modelPath: bundle.path, directory: directory)
        let (replies, ready) = try replies(steps["handshake"])
        XCTAssertTrue(ready)
        XCTAssertEqual(replies.count, 1, "found in the model directory, not transferred again: \(replies)")
        try assertDetections(steps, directory: directory, "after a restart")
        XCTAssertTrue(harness.waitUntilIdle())
    }

    func testRefusedTransfersSayWhyAndSaveNothing() throws {
        let directory = try temporaryDirectory("frigate")
        let models = directory.appendingPathComponent("models")
        let socket = "ipc://\(directory.path)/zmq_detector"
        let junk = directory.appendingPathComponent("junk.tar")
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: junk)
        let short = directory.appendingPathComponent("short.weights")
        try Data(try Data(contentsOf: TestPaths.require(TestPaths.tinyWeights)).prefix(1000)).write(to: short)
        let harness = try ServerHarness(models: [try tinyModel()]) {
            $0.zmqEndpoint = socket
            $0.zmqModelDirectory = models
            $0.maxUploadBytes = 600_000   // a 416 x 416 tensor is 519,168 bytes
        }
        let cases: [(URL, String)] = [
            (junk, "neither a tar archive nor a .weights file"),
            (short, "the model did not load: short.weights: the cfg needs 35,434,956 bytes of weights"),
        ]
        for (file, message) in cases {
            let steps = try runPlugin(socket, modelPath: file.path, directory: directory)
            let (replies, ready) = try replies(steps["handshake"])
            XCTAssertFalse(ready)
            XCTAssertEqual(replies.last?["model_saved"] as? Bool, false, "\(replies)")
            XCTAssertEqual(replies.last?["model_loaded"] as? Bool, false)
            XCTAssertTrue((replies.last?["message"] as? String ?? "").contains(message), "\(replies)")
            XCTAssertNil(steps["tensor"], "the plugin sends no tensor before a handshake succeeds")
            XCTAssertTrue(harness.log.all.contains { $0.contains("zmq model_data \(file.lastPathComponent)") && $0.contains(message) },
                          harness.log.all.joined(separator: "\n"))
        }
        // Over --max-upload: libzmq drops the sender without a reply, and the server keeps serving.
        let large = directory.appendingPathComponent("large.weights")
        try Data(count: 700_000).write(to: large)
        let steps = try runPlugin(socket, modelPath: large.path, directory: directory, handshakeMilliseconds: 1500)
        let (replies, ready) = try replies(steps["handshake"])
        XCTAssertFalse(ready)
        XCTAssertEqual(replies.count, 1, "only the model_request is answered: \(replies)")
        XCTAssertNil(steps["handshake"]?["frames"] as? Int, "no reply to the model_data")
        XCTAssertFalse(FileManager.default.fileExists(atPath: models.path), "nothing saved: \((try? FileManager.default.contentsOfDirectory(atPath: models.path)) ?? [])")
        let served = try runPlugin(socket, modelPath: "yolov3-tiny.weights", directory: directory)
        XCTAssertTrue(try self.replies(served["handshake"]).ready)
        XCTAssertTrue(harness.waitUntilIdle())
    }

    func testTransfersNeedAModelDirectory() throws {
        let directory = try temporaryDirectory("frigate")
        let socket = "ipc://\(directory.path)/zmq_detector"
        let bundle = try Self.makeBundle(in: directory)
        let harness = try ServerHarness(models: [try tinyModel()]) {
            $0.zmqEndpoint = socket
            $0.maxUploadBytes = 64 << 20
        }
        let steps = try runPlugin(socket, modelPath: bundle.path, directory: directory)
        let (replies, ready) = try replies(steps["handshake"])
        XCTAssertFalse(ready)
        XCTAssertEqual(replies.last?["model_saved"] as? Bool, false)
        XCTAssertTrue((replies.last?["message"] as? String ?? "").contains("--zmq-models"), "\(replies)")
        XCTAssertTrue(harness.waitUntilIdle())
    }

    /// `tiny.tar`: YOLOv3-tiny's cfg, weights and COCO names, made by Debian's tar.
    private static func makeBundle(in directory: URL) throws -> URL {
        let bundle = directory.appendingPathComponent("tiny.tar")
        let files = [TestPaths.tinyCfg, TestPaths.tinyWeights, TestPaths.cocoNames]
        var arguments = ["cf", bundle.path]
        for file in files { arguments += ["-C", try TestPaths.require(file).deletingLastPathComponent().path, file.lastPathComponent] }
        let result = try ChildProcess.run("/usr/bin/tar", arguments, timeout: 60)
        guard result.status == 0 else { throw ServeFixtures.Failure(description: "tar: \(result.stderr)") }
        return bundle
    }
}
