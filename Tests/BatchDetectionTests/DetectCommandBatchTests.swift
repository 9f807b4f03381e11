import BatchDetection
import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `swift-darknet detect` on batches, through the built binary: directories, `--recursive`,
/// `--list` (a file and stdin), `--json` lines with an error line, `--out-json`,
/// `--save-labels`, and the exit status.
final class DetectCommandBatchTests: XCTestCase {
    /// A folder with dog.jpg, a truncated broken.jpg, a text file, and below it kite.jpg under a
    /// name JSON has to escape.
    private func makeFolder() throws -> (folder: URL, nasty: URL) {
        let folder = try temporaryDirectory("batch")
        try BatchFixtures.copySample("dog.jpg", to: folder.appendingPathComponent("dog.jpg"))
        try BatchFixtures.writeTruncatedJPEG(to: folder.appendingPathComponent("broken.jpg"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let nasty = sub.appendingPathComponent("k\"i\\t\ne\u{1}\té😀.JPG")
        try BatchFixtures.copySample("kite.jpg", to: nasty)
        return (folder, nasty)
    }

    func testRecursiveDirectoryWithJSONLinesOutJSONAndLabels() throws {
        let (folder, nasty) = try makeFolder()
        let outJSON = folder.appendingPathComponent("out.json")
        let run = try BatchFixtures.detect(["--thresh", "0.25", "--json", "--recursive", "--out-json", outJSON.path,
                                      "--save-labels", folder.path])
        XCTAssertEqual(run.status, 1, "a broken image makes the command exit 1 at the end: \(run.stderr)")
        let broken = folder.appendingPathComponent("broken.jpg").path
        let dog = folder.appendingPathComponent("dog.jpg").path
        let order = [broken, dog, nasty.path]  // sorted by path; notes.txt is not an image
        XCTAssertTrue(run.stderr.contains("swift-darknet: \(broken): "), run.stderr)

        let detector = try TinyYOLO.detector()
        let options = DetectionOptions(threshold: 0.25)
        let expected = try [dog, nasty.path].map { try detector.detect(PlanarImage(contentsOf: URL(fileURLWithPath: $0)), options: options) }
        XCTAssertFalse(expected[0].isEmpty)
        XCTAssertFalse(expected[1].isEmpty)

        // --json: one line per image in order; the broken one has an "error" field.
        let lines = try run.jsonLines()
        XCTAssertEqual(lines.map { $0["image"] as? String }, order)
        XCTAssertNotNil(lines[0]["error"] as? String)
        XCTAssertTrue((lines[0]["error"] as? String ?? "").contains(broken))
        XCTAssertNil(lines[0]["detections"])
        for (line, want) in zip(lines.dropFirst(), expected) {
            XCTAssertNil(line["error"])
            let found = try XCTUnwrap(line["detections"] as? [[String: Any]])
            XCTAssertEqual(found.map { $0["class"] as? Int }, want.map(\.classIndex))
            XCTAssertEqual(found.map { $0["x"] as? Int }, want.map(\.rect.left))
        }

        // --out-json: valid JSON, frame_id from 1 in input order, the detections' own values.
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: outJSON)) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["frame_id"] as? Int }, [1, 2, 3])
        XCTAssertEqual(entries.map { $0["filename"] as? String }, order)
        XCTAssertNotNil(entries[0]["error"] as? String)
        XCTAssertNil(entries[0]["objects"])
        for (entry, want) in zip(entries.dropFirst(), expected) {
            let objects = try XCTUnwrap(entry["objects"] as? [[String: Any]])
            XCTAssertEqual(objects.count, want.count)
            for (object, d) in zip(objects, want) {
                XCTAssertEqual(object["class_id"] as? Int, d.classIndex)
                XCTAssertEqual(object["name"] as? String, d.label)
                let confidence = try XCTUnwrap(object["confidence"] as? Double)
                XCTAssertEqual(confidence, Double(d.confidence), accuracy: 5e-7)  // printed with 6 decimals
                let c = try XCTUnwrap(object["relative_coordinates"] as? [String: Double])
                XCTAssertEqual(try XCTUnwrap(c["center_x"]), Double(d.box.x), accuracy: 5e-7)
                XCTAssertEqual(try XCTUnwrap(c["center_y"]), Double(d.box.y), accuracy: 5e-7)
                XCTAssertEqual(try XCTUnwrap(c["width"]), Double(d.box.width), accuracy: 5e-7)
                XCTAssertEqual(try XCTUnwrap(c["height"]), Double(d.box.height), accuracy: 5e-7)
            }
        }

        // --save-labels: beside each decoded image, the best class per box; none for the broken one.
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("broken.txt").path))
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8), "not an image")
        for (image, want) in zip([dog, nasty.path], expected) {
            let label = try String(contentsOfFile: YOLOLabels.labelPath(forImage: image), encoding: .utf8)
            XCTAssertEqual(label, YOLOLabels.text(for: want))
            var boxes: [RelativeBox] = []
            for d in want where boxes.last != d.box { boxes.append(d.box) }
            let rows = label.split(separator: "\n")
            XCTAssertEqual(rows.count, boxes.count, "one line per box")
            for (row, box) in zip(rows, boxes) {
                let fields = row.split(separator: " ")
                let best = want.filter { $0.box == box }.max { $0.confidence < $1.confidence }
                XCTAssertEqual(Int(fields[0]), best?.classIndex)
                XCTAssertEqual(Double(fields[1]) ?? -1, Double(box.x), accuracy: 5e-5)
                XCTAssertEqual(Double(fields[4]) ?? -1, Double(box.height), accuracy: 5e-5)
            }
        }
    }

    /// `--jobs 3` runs images at once and prints exactly what one at a time prints, in the same
    /// order, errors included; the -out file is the same bytes.
    func testJobsGiveTheSameOutputInTheSameOrder() throws {
        let (folder, _) = try makeFolder()
        for name in ["eagle.jpg", "giraffe.jpg", "horses.jpg", "person.jpg"] {
            try BatchFixtures.copySample(name, to: folder.appendingPathComponent(name))
        }
        var outputs: [(stdout: String, outJSON: Data)] = []
        for jobs in [1, 3] {
            let outJSON = folder.appendingPathComponent("out\(jobs).json")
            let run = try BatchFixtures.detect(["--json", "--recursive", "--jobs", String(jobs), "--out-json", outJSON.path, folder.path])
            XCTAssertEqual(run.status, 1, "the broken image: \(run.stderr)")
            XCTAssertEqual(try run.jsonLines().count, 7)
            outputs.append((run.stdout, try Data(contentsOf: outJSON)))
        }
        XCTAssertEqual(outputs[0].stdout, outputs[1].stdout)
        XCTAssertEqual(outputs[0].outJSON, outputs[1].outJSON)
        let zero = try BatchFixtures.detect(["--jobs", "0", folder.path])
        XCTAssertEqual(zero.status, 2, zero.stderr)
    }

    func testListOnStdinAndListFileAndDirectoryWithoutRecursive() throws {
        let (folder, _) = try makeFolder()
        let dog = folder.appendingPathComponent("dog.jpg").path
        // A directory without --recursive: only its own images (the nasty one is below it).
        let plain = try BatchFixtures.detect(["--json", folder.path])
        XCTAssertEqual(plain.status, 1)
        XCTAssertEqual(try plain.jsonLines().map { $0["image"] as? String },
                       [folder.appendingPathComponent("broken.jpg").path, dog])

        // Paths on stdin, one per line (empty lines skipped, CRLF accepted), after a positional image.
        let stdin = try BatchFixtures.detect(["--json", "--list", "-", dog], input: Data("\n\(dog)\r\n\n".utf8))
        XCTAssertEqual(stdin.status, 0, stdin.stderr)
        let stdinLines = try stdin.jsonLines()
        XCTAssertEqual(stdinLines.map { $0["image"] as? String }, [dog, dog])
        XCTAssertEqual(stdinLines[0]["detections"] as? NSArray, stdinLines[1]["detections"] as? NSArray)

        // A list file, with a missing image: reported, the others still run, exit 1.
        let list = folder.appendingPathComponent("images.list")
        let missing = folder.appendingPathComponent("missing.jpg").path
        try Data("\(missing)\n\(dog)\n".utf8).write(to: list)
        let fromFile = try BatchFixtures.detect(["--list", list.path])
        XCTAssertEqual(fromFile.status, 1)
        XCTAssertTrue(fromFile.stderr.contains("swift-darknet: \(missing): "), fromFile.stderr)
        XCTAssertTrue(fromFile.stdout.contains("\(dog): Predicted in "), fromFile.stdout)
        XCTAssertTrue(fromFile.stdout.contains("dog: "), fromFile.stdout)
    }

    func testBadInputsAreErrorsNamingTheFile() throws {
        let folder = try temporaryDirectory("batch")
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noImages = try BatchFixtures.detect(["--recursive", empty.path])
        XCTAssertEqual(noImages.status, 1)
        XCTAssertTrue(noImages.stderr.contains(empty.path), noImages.stderr)
        XCTAssertEqual(noImages.stdout, "")

        let missingList = folder.appendingPathComponent("missing.list").path
        let noList = try BatchFixtures.detect(["--list", missingList])
        XCTAssertEqual(noList.status, 1)
        XCTAssertTrue(noList.stderr.contains(missingList), noList.stderr)

        let emptyStdin = try BatchFixtures.detect(["--list", "-"], input: Data("\n".utf8))
        XCTAssertEqual(emptyStdin.status, 1)
        XCTAssertTrue(emptyStdin.stderr.contains("<stdin>"), emptyStdin.stderr)

        let badOut = try BatchFixtures.detect(["--out-json", folder.appendingPathComponent("no/such/dir.json").path,
                                         try TestPaths.require(TestPaths.sample("dog.jpg")).path])
        XCTAssertEqual(badOut.status, 1)
        XCTAssertTrue(badOut.stderr.contains("no/such/dir.json"), badOut.stderr)

        // An --out naming a format that is read but not written is a usage mistake, not a directory.
        let webp = folder.appendingPathComponent("annotated.webp")
        let readOnlyFormat = try BatchFixtures.detect(["--out", webp.path, try TestPaths.require(TestPaths.sample("dog.jpg")).path])
        XCTAssertEqual(readOnlyFormat.status, 2)
        XCTAssertTrue(readOnlyFormat.stderr.contains("annotated images are written as .png or .jpg, not .webp"), readOnlyFormat.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: webp.path))
    }
}
