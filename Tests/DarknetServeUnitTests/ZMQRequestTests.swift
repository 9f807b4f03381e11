import Darknet
@testable import DarknetServe
import Foundation
import TestSupport
import XCTest

/// Reading Frigate's ZMQ messages (the handshake and tensors told apart, names checked) and the
/// tar bundles a `model_data` carries, malformed ones included.
final class ZMQRequestTests: XCTestCase {
    private func request(_ frames: [[UInt8]]) throws -> ZMQRequest {
        try ZMQRequest(frames: frames, count: frames.count, maxPixels: 1_000_000)
    }

    func testHandshakesAndTensorsAreToldApart() throws {
        guard case .modelRequest("yolov4-tiny.tar") = try request([Array(#"{"model_request": true, "model_name": "yolov4-tiny.tar"}"#.utf8)]) else {
            return XCTFail("a model_request")
        }
        guard case .modelData("m.weights", [1, 2, 3]) = try request([Array(#"{"model_data": true, "model_name": "m.weights"}"#.utf8), [1, 2, 3]]) else {
            return XCTFail("a model_data")
        }
        let tensor = [UInt8](repeating: 7, count: 2 * 2 * 3)
        guard case .tensor(let read) = try request([Array(#"{"shape": [1, 2, 2, 3], "dtype": "uint8", "model_type": "yolo-generic"}"#.utf8), tensor]) else {
            return XCTFail("a tensor")
        }
        XCTAssertEqual(read.width, 2)
        XCTAssertThrowsError(try request([Array(#"{"model_data": true, "model_name": "m.weights"}"#.utf8)])) {
            XCTAssertEqual($0 as? ModelTransferError, .noBytes)
        }
        XCTAssertThrowsError(try request([tensor])) { XCTAssertEqual($0 as? TensorError, .frameCount(1)) }
        guard case .modelRequest("my model (v2).tar") = try request([Array(#"{"model_request": true, "model_name": "my model (v2).tar"}"#.utf8)]) else {
            return XCTFail("a name with spaces and brackets")
        }
        for name in ["../etc/passwd", "a/b.tar", "a\\b.tar", ".hidden", " lead", "", String(repeating: "x", count: 129), "é.tar", "tab\t.tar"] {
            let header = try JSONSerialization.data(withJSONObject: ["model_request": true, "model_name": name])
            XCTAssertThrowsError(try request([[UInt8](header)]), name) { XCTAssertEqual($0 as? ModelTransferError, .name(name)) }
        }
        XCTAssertThrowsError(try request([Array(#"{"model_request": true}"#.utf8)])) { XCTAssertEqual($0 as? ModelTransferError, .name("")) }
    }

    func testBundleMembersAreFoundByExtensionOnly() throws {
        let archive = Self.tar([("./net/x.cfg", "0", Array("[net]\n".utf8)), ("dir/", "5", []),
                                ("../../evil.weights", "0", [1, 2, 3, 4]), ("._x.cfg", "0", [9]), ("coco.names", "0", Array("a\nb\n".utf8))])
        XCTAssertTrue(DarknetBundle.looksLikeArchive(archive))
        let bundle = try DarknetBundle(archive: archive)
        XCTAssertEqual(bundle.cfg, Array("[net]\n".utf8))
        XCTAssertEqual(bundle.weights, [1, 2, 3, 4])
        XCTAssertEqual(bundle.names, Array("a\nb\n".utf8))
        XCTAssertEqual(bundle.memberNames, ["net/x.cfg", "../../evil.weights", "coco.names"])
    }

    func testMalformedBundlesAreRefusedWithTheReason() throws {
        let good = Self.tar([("x.cfg", "0", [1]), ("x.weights", "0", [2])])
        var damaged = good
        damaged[10] ^= 1
        let cases: [([UInt8], String)] = [
            (Self.tar([("x.cfg", "0", [1])]), "no .weights file"),
            (Self.tar([("x.weights", "0", [1])]), "no .cfg file"),
            (Self.tar([("a.cfg", "0", [1]), ("b.cfg", "0", [1]), ("x.weights", "0", [2])]), "two .cfg files: 'a.cfg' and 'b.cfg'"),
            (Self.tar([("x.cfg", "2", []), ("x.weights", "0", [2])]), "'x.cfg' is not a regular file (tar type '2')"),
            (damaged, "the header at byte 0 is damaged"),
            (Array(Self.tar([("x.weights", "0", [UInt8](repeating: 1, count: 1000))]).prefix(512 + 100)), "runs past the end"),
        ]
        for (archive, message) in cases {
            XCTAssertThrowsError(try DarknetBundle(archive: archive), message) { error in
                XCTAssertTrue(String(describing: error).contains(message), "\(error)")
            }
        }
    }

    func testFrigateNamesAndEachPeersModel() throws {
        // Any detector: only the names are compared (a small random network, no weights file).
        let cfg = "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=6\nsize=1\nactivation=linear\n"
            + "[yolo]\nmask=0\nanchors=10,14\nnum=1\nclasses=1\n"
        let detector = try Detector(network: try Network(spec: try NetworkSpec.parse(text: cfg, file: "tiny.cfg"), randomSeed: 1))
        let files = ServedModel.Files(cfg: URL(fileURLWithPath: "/m/yolov3-tiny.cfg"), weights: URL(fileURLWithPath: "/m/tiny-2024.weights"), names: nil)
        let first = ServedModel(name: "yolov3-tiny", detector: detector, loadSeconds: 0, files: files)
        let second = ServedModel(name: "plates", detector: detector, loadSeconds: 0)
        for name in ["yolov3-tiny", "yolov3-tiny.weights", "yolov3-tiny.tar", "yolov3-tiny.cfg", "tiny-2024.weights"] {
            XCTAssertTrue(first.answers(frigateName: name), name)
        }
        for name in ["yolov3.weights", "yolov3-tiny.onnx", "yolov3-tiny.weights.tar", "tiny-2024.cfg"] {
            XCTAssertFalse(first.answers(frigateName: name), name)
        }
        let models = FrigateModels(served: [first, second], directory: nil)
        XCTAssertEqual(try models.find("plates.tar")?.name, "plates")
        XCTAssertNil(try models.find("other.tar"), "not served, and no directory to find it in")
        XCTAssertThrowsError(try models.save("other.tar", bytes: [1, 2, 3])) { XCTAssertEqual($0 as? ModelTransferError, .noDirectory) }
        // A peer gets the model its handshake chose; one that never shook hands, the first.
        models.use(second, for: [0])
        XCTAssertEqual(models.model(for: [0]).name, "plates")
        XCTAssertEqual(models.model(for: [1]).name, "yolov3-tiny")
        // Each socket reset is a new peer: the oldest are forgotten past the bound.
        for peer in 1...FrigateModels.maximumPeers { models.use(second, for: [UInt8(peer & 255), UInt8(peer >> 8)]) }
        XCTAssertEqual(models.model(for: [0]).name, "yolov3-tiny", "forgotten")
        XCTAssertEqual(models.model(for: [UInt8(FrigateModels.maximumPeers & 255), UInt8(FrigateModels.maximumPeers >> 8)]).name, "plates")
    }

    /// A ustar archive of `members` (name, type flag, bytes), ended by two zero blocks.
    private static func tar(_ members: [(name: String, type: Character, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        for member in members {
            var header = [UInt8](repeating: 0, count: 512)
            func put(_ text: String, at offset: Int) { header.replaceSubrange(offset..<offset + text.utf8.count, with: Array(text.utf8)) }
            put(member.name, at: 0)
            put("0000644", at: 100)
            put(String(format: "%011o", member.bytes.count), at: 124)
            put(String(member.type), at: 156)
            put("ustar\u{0}00", at: 257)
            header.replaceSubrange(148..<156, with: [UInt8](repeating: 32, count: 8))
            put(String(format: "%06o\u{0} ", header.reduce(0) { $0 + Int($1) }), at: 148)
            out += header + member.bytes + [UInt8](repeating: 0, count: (512 - member.bytes.count % 512) % 512)
        }
        return out + [UInt8](repeating: 0, count: 1024)
    }
}
