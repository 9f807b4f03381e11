import Darknet
import DarknetEvaluation
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `classify-valid` and `ClassifierValidation` against Debian's own `darknet classifier valid`
/// (the binary), Darknet's reference classifier with random weights, on the sample images
/// copied under names that carry ImageNet labels (`Tools/make-fixtures-zoo.sh`, step 5b): top-1
/// hits, a class ranked 2nd to 5th, an unrelated class and an unlabelled image.
final class ClassifierValidationTests: XCTestCase {
    private static let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
    private static let folder = zoo.appendingPathComponent("classify-valid")

    private func model() throws -> [String] {
        ["--cfg", try TestPaths.require(Self.zoo.appendingPathComponent("cfg/darknet.cfg")).path,
         "--weights", try TestPaths.require(Self.zoo.appendingPathComponent("weights/darknet.weights")).path]
    }

    /// The network input is Darknet's `center_crop_image`, bit for bit.
    func testCentreCropIsDarknetsInputBitForBit() throws {
        for name in ["dog", "eagle", "giraffe", "horses", "kite", "person", "scream"] {
            let expected = try readFloatFile(try TestPaths.require(Self.folder.appendingPathComponent("input/\(name)-256x256.bin")))
            let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("\(name).jpg")))
            let crop = try image.centreCropped(width: 256, height: 256)
            XCTAssertEqual([crop.width, crop.height, crop.channels], [256, 256, 3])
            XCTAssertTrue(crop.pixels == expected, "\(name): \(zip(crop.pixels, expected).filter { $0 != $1 }.count) values differ")
        }
    }

    /// What `classify-valid` prints is what `darknet classifier valid` printed: each image's
    /// listed path and class, the scores of classes 0 and 1 (to float rounding), and the
    /// running top-1 / top-5 line exactly; Darknet's own command line gives the same.
    func testClassifyValidPrintsWhatDarknetPrints() throws {
        let expected = try String(contentsOf: try TestPaths.require(Self.folder.appendingPathComponent("expected.txt")), encoding: .utf8)
        let data = Self.folder.appendingPathComponent("valid.data")
        let run = try SwiftDarknetTool.run(["classify-valid", "--data", "valid.data"] + model(), in: Self.folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let mine = run.stdout.split(separator: "\n"), theirs = expected.split(separator: "\n")
        XCTAssertEqual(mine.count, theirs.count)
        XCTAssertEqual(theirs.count, 16, "8 images, two lines each")
        for (index, (a, b)) in zip(mine, theirs).enumerated() {
            guard index % 2 == 0 else {
                XCTAssertEqual(a, b, "the running accuracy after image \(index / 2)")
                continue
            }
            // "PATH, CLASS, SCORE0, SCORE1, " (Darknet ends the line with a comma and a space).
            XCTAssertTrue(a.hasSuffix(", "), String(a))
            let fieldsA = a.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let fieldsB = b.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            XCTAssertEqual(fieldsA.count, 4, String(a))
            XCTAssertEqual(fieldsA.prefix(2), fieldsB.prefix(2), "path and class of image \(index / 2)")
            for (x, y) in zip(fieldsA.dropFirst(2), fieldsB.dropFirst(2)) {
                XCTAssertEqual(try XCTUnwrap(Double(x)), try XCTUnwrap(Double(y)), accuracy: 1.5e-6, "\(a) against \(b)")
            }
        }
        XCTAssertTrue(run.stderr.contains("1 of 8 image paths contain no label of the first 1000: counted as misses"), run.stderr)

        let darknetForm = try SwiftDarknetTool.run(["classifier", "valid", data.path] + model().filter { !$0.hasPrefix("--") })
        XCTAssertEqual(darknetForm.status, 0, darknetForm.stderr)
        XCTAssertEqual(darknetForm.stdout, run.stdout)

        let json = try SwiftDarknetTool.run(["classify-valid", "--data", data.path, "--json"] + model())
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(try json.jsonLines().first)
        XCTAssertEqual(report["images"] as? Int, 8)
        XCTAssertEqual(report["top"] as? Int, 5)
        XCTAssertEqual(report["unlabelled"] as? Int, 1)
        let last = try XCTUnwrap(theirs.last)
        XCTAssertEqual(last, "7: top 1: " + String(format: "%f", try XCTUnwrap(report["top1"] as? Double))
                       + ", top 5: " + String(format: "%f", try XCTUnwrap(report["topk"] as? Double)))
        XCTAssertLessThan(try XCTUnwrap(report["top1_hits"] as? Int), try XCTUnwrap(report["topk_hits"] as? Int),
                          "a class ranked 2nd to 5th counts at top 5 only")
    }

    /// The library gives the same tally, image by image, with each image's class from its path.
    func testLibraryTalliesImageByImage() throws {
        let validation = try ClassifierValidation(data: Self.folder.appendingPathComponent("valid.data"), workingDirectory: Self.folder)
        XCTAssertEqual(validation.classes, 1000)
        XCTAssertEqual(validation.top, 5)
        XCTAssertEqual(validation.images.count, 8)
        XCTAssertEqual(validation.images.map { $0.truth == nil }, [false, false, false, false, true, false, false, false])
        for image in validation.images {
            if let truth = image.truth { XCTAssertTrue(image.listed.contains(validation.labels[truth])) }
            XCTAssertTrue(FileManager.default.fileExists(atPath: image.path))
        }
        let classifier = try Classifier(network: try Network(cfg: Self.zoo.appendingPathComponent("cfg/darknet.cfg"),
                                                             weights: Self.zoo.appendingPathComponent("weights/darknet.weights")))
        var lines: [String] = []
        let tally = try validation.run(classifier) { _, scores, tally in
            XCTAssertEqual(scores.count, 2)
            lines.append(tally.darknetLine)
        }
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("expected.txt"), encoding: .utf8)
            .split(separator: "\n").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        XCTAssertEqual(lines, expected)
        XCTAssertEqual(tally.images, 8)
    }

    /// A `.data` file without what scoring needs, or with what is not supported, names the file,
    /// line and key; the command refuses a run without `--data` or with images given by position.
    func testBadDataFilesAndUsageAreNamed() throws {
        let folder = try temporaryDirectory("classify-valid")
        let labels = folder.appendingPathComponent("labels.list")
        try Data("cat\ndog\n".utf8).write(to: labels)
        try FileManager.default.copyItem(at: try TestPaths.require(TestPaths.sample("dog.jpg")), to: folder.appendingPathComponent("dog.jpg"))
        try Data("dog.jpg\nnone.jpg\n".utf8).write(to: folder.appendingPathComponent("missing.list"))
        func data(_ text: String) throws -> URL {
            let url = folder.appendingPathComponent("v\(text.hashValue & 0xffff).data")
            try Data(text.utf8).write(to: url)
            return url
        }
        let cases: [(String, String)] = [
            ("classes=2\nvalid=missing.list\n", "no 'labels=' line: it names the class labels (one a line) an image's path is matched against"),
            ("classes=2\nlabels=labels.list\n", "no 'valid=' line"),
            ("classes=3\nlabels=labels.list\nvalid=missing.list\n", ":1: 'classes': invalid value '3', expected at most the 2 labels of"),
            ("classes=2\nlabels=labels.list\nvalid=missing.list\nleaves=tree\n",
             ":4: 'leaves': invalid value 'tree', expected no leaves= (changing a hierarchy's leaves is not supported)"),
            ("classes=2\nlabels=labels.list\nvalid=missing.list\n", "missing.list:2: 'none.jpg' not found"),
        ]
        for (text, message) in cases {
            let url = try data(text)
            XCTAssertThrowsError(try ClassifierValidation(data: url, workingDirectory: folder), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
                XCTAssertTrue("\(error)".hasPrefix(url.path) || "\(error)".contains("missing.list"), "\(error)")
            }
        }
        let noData = try SwiftDarknetTool.run(["classify-valid"] + model())
        XCTAssertEqual(noData.status, 2)
        XCTAssertTrue(noData.stderr.contains("missing --data (the .data file naming the images to score and their labels)"), noData.stderr)
        let positional = try SwiftDarknetTool.run(["classify-valid", "--data", "x.data"] + model() + ["dog.jpg"])
        XCTAssertEqual(positional.status, 2)
        XCTAssertTrue(positional.stderr.contains("classify-valid takes its images from the .data file's valid= list, not 'dog.jpg'"),
                      positional.stderr)
    }
}
