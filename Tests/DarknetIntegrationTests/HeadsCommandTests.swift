import Foundation
import TestSupport
import XCTest

/// `swift-darknet heads`: the head inputs `forward --dump` writes give `detect`'s detections;
/// files that are not one per head of its size are input errors naming them.
final class HeadsCommandTests: XCTestCase {
    private func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        try SwiftDarknetTool.run(arguments, in: TestPaths.packageRoot, file: file, line: line)
    }

    /// The `"detections": [...]` part of a `--json` line.
    private func detections(_ json: String) -> Substring? {
        json.range(of: #""detections": "#).map { json[$0.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)[...] }
    }

    func testHeadInputsFromForwardGiveDetectsDetections() throws {
        let model = ["--cfg", try TestPaths.require(TestPaths.tinyCfg).path, "--weights", try TestPaths.require(TestPaths.tinyWeights).path,
                     "--names", try TestPaths.require(TestPaths.cocoNames).path]
        let folder = try temporaryDirectory("heads-cli")
        for (image, size) in [("dog.jpg", "768x576"), ("person.jpg", "640x424")] {
            let path = try TestPaths.require(TestPaths.sample(image)).path
            let dump = folder.appendingPathComponent(image)
            // YOLOv3-tiny's heads are layers 16 and 23: their inputs are the outputs of 15 and 22.
            let forward = try run(["forward"] + model.prefix(4) + ["--image", path, "--dump", dump.path, "--layers", "15,22"])
            XCTAssertEqual(forward.status, 0, forward.stderr)
            let inputs = ["layer015.bin", "layer022.bin"].flatMap { ["--head-input", dump.appendingPathComponent($0).path] }
            for extra in [[], ["--thresh", "0.25"]] {
                let detect = try run(["detect"] + model + ["--json", path] + extra)
                XCTAssertEqual(detect.status, 0, detect.stderr)
                let heads = try run(["heads"] + model + inputs + ["--image-size", size, "--json"] + extra)
                XCTAssertEqual(heads.status, 0, heads.stderr)
                XCTAssertTrue(heads.stdout.hasPrefix(#"{"width": \#(size.split(separator: "x")[0]), "height": "#), heads.stdout)
                XCTAssertNotNil(detections(detect.stdout))
                XCTAssertEqual(detections(heads.stdout), detections(detect.stdout), "\(image) \(extra)")
                XCTAssertTrue(detect.stdout.contains(#""label": "#), "\(image): some detections to compare")
            }
            let text = try run(["heads"] + model + inputs + ["--image-size", size])
            // `detect` starts with Darknet's "IMAGE: Predicted in S seconds." line.
            let detectText = try run(["detect"] + model + [path]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(text.stdout, detectText.dropFirst().joined(separator: "\n"), image)
            XCTAssertTrue(text.stdout.contains("dog: 56%") || image != "dog.jpg", text.stdout)
        }

        let dump = folder.appendingPathComponent("dog.jpg")
        let first = dump.appendingPathComponent("layer015.bin").path, second = dump.appendingPathComponent("layer022.bin").path
        let one = try run(["heads"] + model + ["--head-input", first, "--image-size", "768x576"])
        XCTAssertEqual(one.status, 1)
        XCTAssertEqual(one.stderr, "swift-darknet: 1 --head-input given, the network has 2 detection heads "
                                   + "(inputs 13 x 13 x 255, 26 x 26 x 255)\n")
        let swapped = try run(["heads"] + model + ["--head-input", second, "--head-input", first, "--image-size", "768x576"])
        XCTAssertEqual(swapped.status, 1)
        XCTAssertEqual(swapped.stderr, "swift-darknet: \(second): 689520 bytes, expected 172380 "
                                       + "(43095 float32 values for the 13 x 13 x 255 input of detection head 0)\n")
        let noInputs = try run(["heads"] + model + ["--image-size", "768x576"])
        XCTAssertEqual(noInputs.status, 2)
        XCTAssertTrue(noInputs.stderr.hasPrefix("swift-darknet: give --head-input once per detection head, in layer order\n"),
                      noInputs.stderr)
        let badSize = try run(["heads"] + model + ["--head-input", first, "--head-input", second, "--image-size", "768"])
        XCTAssertEqual(badSize.status, 2)
        XCTAssertTrue(badSize.stderr.hasPrefix("swift-darknet: --image-size must be WIDTHxHEIGHT in pixels (e.g. 768x576), got '768'\n"),
                      badSize.stderr)
    }
}
