import Darknet
import DarknetEvaluation
import TestSupport
import XCTest

/// `.data` files and image lists that cannot be scored, each an error naming the file (and
/// line) and what is missing; and how relative paths are found.
final class ValidationSetTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try temporaryDirectory("evaluation")
        try writeText("a\nb\nc\n", to: "obj.names", in: folder)
        for name in ["one", "two"] {
            try writeText("", to: "obj/\(name).png", in: folder)
            try writeText("0 0.5 0.5 0.2 0.2\n", to: "obj/\(name).txt", in: folder)
        }
    }

    private func set(_ data: String, list: String? = "obj/one.png\n\nobj/two.png\n") throws -> ValidationSet {
        if let list { try writeText(list, to: "valid.txt", in: folder) }
        let url = try writeText(data, to: "obj.data", in: folder)
        return try ValidationSet(data: url, workingDirectory: folder)
    }

    func testReadsTheListRelativeToTheWorkingDirectoryOrTheDataFile() throws {
        let read = try set("classes = 3\nnames = obj.names\nvalid = valid.txt\n")
        XCTAssertEqual(read.images, [folder.appendingPathComponent("obj/one.png").path, folder.appendingPathComponent("obj/two.png").path])
        XCTAssertEqual(read.eval, "voc")
        XCTAssertEqual(read.resultsFolder, folder.appendingPathComponent("results").path)
        XCTAssertEqual(try read.labels(ofImage: 1, classes: 3).boxes.count, 1)
        // From elsewhere: the list and the images are found beside the .data file.
        let elsewhere = try ValidationSet(data: folder.appendingPathComponent("obj.data"),
                                          workingDirectory: FileManager.default.temporaryDirectory)
        XCTAssertEqual(elsewhere.images, read.images)
    }

    func testDataFileWithoutValidIsAnError() {
        XCTAssertThrowsError(try set("classes = 3\nnames = obj.names\ntrain = train.txt\n")) { error in
            XCTAssertEqual(error as? EvaluationError, .missingKey(file: folder.appendingPathComponent("obj.data").path, key: "valid"))
            XCTAssertEqual("\(error)", folder.appendingPathComponent("obj.data").path
                           + ": no 'valid=' line: it names the list of images to score (one path a line)")
        }
    }

    func testMissingListAndMissingImagesAreErrorsNamingTheLine() throws {
        XCTAssertThrowsError(try set("valid = nowhere.txt\n", list: nil)) { error in
            guard case .fileNotFound(value: "nowhere.txt", _)? = (error as? DataFileError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual((error as? DataFileError)?.line, 1)
        }
        XCTAssertThrowsError(try set("valid = valid.txt\n", list: "obj/one.png\nobj/three.png\n")) { error in
            guard case .imageNotFound(let list, let line, let path, _)? = error as? EvaluationError else { return XCTFail("\(error)") }
            XCTAssertEqual(list, folder.appendingPathComponent("valid.txt").path)
            XCTAssertEqual(line, 2)
            XCTAssertEqual(path, "obj/three.png")
        }
        XCTAssertThrowsError(try set("valid = valid.txt\n", list: "\n  \n")) { error in
            XCTAssertEqual(error as? EvaluationError, .emptyList(file: folder.appendingPathComponent("valid.txt").path))
        }
    }

    func testMissingLabelFileIsAnErrorNamingTheImageAndWhereItLooked() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("d/images"), withIntermediateDirectories: true)
        try writeText("", to: "d/images/x.jpg", in: folder)
        let read = try set("valid = valid.txt\n", list: "d/images/x.jpg\n")
        let image = folder.appendingPathComponent("d/images/x.jpg").path
        XCTAssertThrowsError(try read.labels(ofImage: 0, classes: 3)) { error in
            XCTAssertEqual(error as? EvaluationError, .labelsNotFound(image: image, tried: [
                folder.appendingPathComponent("d/images/x.txt").path, folder.appendingPathComponent("d/labels/x.txt").path]))
            XCTAssertTrue("\(error)".hasSuffix("an image without objects needs an empty one"), "\(error)")
        }
        try writeText("2 0.5 0.5 0.1 0.1\n", to: "d/labels/x.txt", in: folder)
        XCTAssertEqual(try read.labels(ofImage: 0, classes: 3).path, folder.appendingPathComponent("d/labels/x.txt").path)
    }

    func testDifficultListGoesLineForLineAndNeedsOnlyLabels() throws {
        try writeText("", to: "hard/one.txt", in: folder)
        try writeText("1 0.5 0.5 0.3 0.3\n", to: "hard/two.txt", in: folder)
        try writeText("hard/one.png\nhard/two.png\n", to: "difficult.txt", in: folder)
        let read = try set("valid = valid.txt\ndifficult = difficult.txt\neval = COCO\nresults = out\n")
        XCTAssertEqual(try read.difficultLabels(ofImage: 1, classes: 3)?.boxes.map(\.classIndex), [1])
        XCTAssertEqual(read.eval, "coco")
        try writeText("hard/one.png\n", to: "difficult.txt", in: folder)
        XCTAssertThrowsError(try set("valid = valid.txt\ndifficult = difficult.txt\n")) { error in
            XCTAssertEqual(error as? EvaluationError,
                           .difficultListMismatch(file: folder.appendingPathComponent("obj.data").path, images: 1, expected: 2))
        }
        XCTAssertThrowsError(try set("valid = valid.txt\neval = kitti\n")) { error in
            XCTAssertEqual(error as? EvaluationError, .unsupportedEval(file: folder.appendingPathComponent("obj.data").path, value: "kitti"))
        }
    }

    func testImagesAreLetterboxedOnlyWhenTheCfgSaysSo() throws {
        func letterbox(_ net: String) throws -> Bool {
            try CfgLetterbox.read(writeText("[net]\nwidth=416\nheight=416\n\(net)\n[yolo]\n", to: "n.cfg", in: folder))
        }
        XCTAssertFalse(try letterbox(""), "AlexeyAB's tools stretch by default")
        XCTAssertTrue(try letterbox("letter_box=1"))
        XCTAssertFalse(try letterbox("letter_box = 0"))
        XCTAssertTrue(try letterbox("letter_box=2\nletter_box=0"), "the first occurrence, as Darknet's option_find")
    }
}
