import BatchDetection
@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The `--out-json` and `--save-labels` formats on hand-made detections.
final class OutputFormatTests: XCTestCase {
    /// Names JSON must escape: quotes, backslashes, every control character, non-ASCII.
    static let nastyNames = ["a\"b\\c\nd\re\tf\u{0}\u{1}\u{1f}\u{7f}é😀\u{2028}/x y.jpg", "", "\\", "\"", "\u{10FFFF}"]

    private func detection(_ classIndex: Int, _ label: String, _ confidence: Float, _ box: RelativeBox) -> Detection {
        let rect = box.pixelRect(imageWidth: 100, imageHeight: 100)
        return Detection(classIndex: classIndex, label: label, confidence: confidence, objectness: 0.9, box: box, rect: rect)
    }

    func testOutJSONIsValidWhateverTheNames() throws {
        let box = RelativeBox(x: 0.25, y: 0.5, width: 0.125, height: 0.0625)
        let file = try temporaryDirectory("batch").appendingPathComponent("out.json")
        let writer = try DarknetJSONFile(path: file.path)
        var expected: [(String, [Detection]?)] = []
        for (i, name) in Self.nastyNames.enumerated() {
            let detections = [detection(3, name, 0.75, box), detection(7, "label \(name)", 0.5, box)]
            let item = i == 2
                ? BatchItem(index: i, path: name, result: .failure(BatchOutputError.cannotWrite(path: name)))
                : BatchItem(index: i, path: name, result: .success(BatchDetections(
                    image: try PlanarImage(width: 2, height: 2, channels: 3, filledWith: 0), detections: detections, seconds: 0)))
            try writer.append(item)
            expected.append((name, i == 2 ? nil : detections))
        }
        try writer.close()
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        XCTAssertEqual(parsed.count, expected.count)
        for (i, (entry, (name, detections))) in zip(parsed, expected).enumerated() {
            XCTAssertEqual(entry["frame_id"] as? Int, i + 1)
            XCTAssertEqual(entry["filename"] as? String, name)
            guard let detections else {
                XCTAssertNil(entry["objects"])
                XCTAssertEqual(entry["error"] as? String, BatchOutputError.cannotWrite(path: name).description)
                continue
            }
            let objects = try XCTUnwrap(entry["objects"] as? [[String: Any]])
            XCTAssertEqual(objects.count, detections.count)
            for (object, d) in zip(objects, detections) {
                XCTAssertEqual(object["class_id"] as? Int, d.classIndex)
                XCTAssertEqual(object["name"] as? String, d.label)
                XCTAssertEqual(object["confidence"] as? Double, Double(d.confidence))
                let coordinates = try XCTUnwrap(object["relative_coordinates"] as? [String: Double])
                XCTAssertEqual(coordinates, ["center_x": 0.25, "center_y": 0.5, "width": 0.125, "height": 0.0625])
            }
        }
    }

    func testEmptyBatchFileIsAnEmptyArrayAndNonFiniteNumbersAreNull() throws {
        let file = try temporaryDirectory("batch").appendingPathComponent("empty.json")
        let writer = try DarknetJSONFile(path: file.path)
        try writer.close()
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [Any])?.count, 0)
        let odd = detection(0, "x", 0.6, RelativeBox(x: .nan, y: .infinity, width: 0.5, height: 0.5))
        let entry = DarknetJSONFile.entry(frameID: 1, filename: "f", detections: [odd])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])
        let coordinates = try XCTUnwrap((object["objects"] as? [[String: Any]])?.first?["relative_coordinates"] as? [String: Any])
        XCTAssertTrue(coordinates["center_x"] is NSNull)
        XCTAssertTrue(coordinates["center_y"] is NSNull)
    }

    func testUnwritableOutJSONNamesTheFile() {
        XCTAssertThrowsError(try DarknetJSONFile(path: "/nonexistent-dir/out.json")) { error in
            XCTAssertEqual(error as? BatchOutputError, .cannotWrite(path: "/nonexistent-dir/out.json"))
        }
    }

    func testLabelsKeepEachBoxsMostProbableClass() {
        let a = RelativeBox(x: 0.5, y: 0.25, width: 0.125, height: 0.375)
        let b = RelativeBox(x: 0.123456, y: 0.987654, width: 0.000049, height: 1)
        let detections = [detection(2, "car", 0.52, a), detection(7, "truck", 0.55, a), detection(9, "light", 0.55, a),
                          detection(16, "dog", 0.9, b), detection(3, "x", 0.6, a)]
        XCTAssertEqual(YOLOLabels.text(for: detections),
                       "7 0.5000 0.2500 0.1250 0.3750\n16 0.1235 0.9877 0.0000 1.0000\n3 0.5000 0.2500 0.1250 0.3750\n")
        XCTAssertEqual(YOLOLabels.text(for: []), "")
    }

    func testLabelPathReplacesTheExtension() {
        XCTAssertEqual(YOLOLabels.labelPath(forImage: "data/dog.jpg"), "data/dog.txt")
        XCTAssertEqual(YOLOLabels.labelPath(forImage: "a.b/IMG.JPEG"), "a.b/IMG.txt")
        XCTAssertEqual(YOLOLabels.labelPath(forImage: "dir.d/noext"), "dir.d/noext.txt")
        XCTAssertEqual(YOLOLabels.labelPath(forImage: ".hidden"), ".hidden.txt")
        XCTAssertThrowsError(try YOLOLabels.write([], forImage: "/tmp/image-named.txt")) { error in
            XCTAssertEqual(error as? BatchOutputError, .labelWouldReplaceImage(path: "/tmp/image-named.txt"))
        }
    }

    /// Both batch error types read as their message, `localizedDescription` included.
    func testBatchErrorsReadAsTheirMessage() {
        assertMessages([
            (BatchOutputError.cannotWrite(path: "/x/out.json"), "/x/out.json: cannot write the file"),
            (BatchInputError.unreadableDirectory(directory: "/x"), "/x: cannot list the directory"),
        ])
    }
}
