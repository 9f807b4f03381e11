import Darknet
import DarknetEvaluation
import XCTest

/// YOLO label files: what is read, what is refused (naming the file and line), what is kept
/// with a warning; and where Darknet looks for them.
final class LabelFileTests: XCTestCase {
    private func labels(_ text: String, classes: Int = 3) throws(LabelFileError) -> LabelFile {
        try LabelFile(bytes: Array(text.utf8), path: "set/a.txt", classes: classes)
    }

    private func assertRefused(_ text: String, line: Int, _ expected: LabelFileError.Reason, message: String,
                               file: StaticString = #filePath, fileLine: UInt = #line) {
        do {
            let read = try labels(text)
            XCTFail("read \(read.boxes.count) boxes from a bad file", file: file, line: fileLine)
        } catch {
            XCTAssertEqual(error, LabelFileError(file: "set/a.txt", line: line, reason: expected), file: file, line: fileLine)
            XCTAssertEqual(error.description, message, file: file, line: fileLine)
        }
    }

    func testReadsBoxesSkippingBlankLinesWithAnyLineEnd() throws {
        let read = try labels("0 0.5 0.5 0.2 0.4\r\n\n  \t\n2\t0.25 0.75 0.1 0.1\r1 0.5 0.5 0.25 0.25")
        XCTAssertEqual(read.boxes, [
            GroundTruthBox(classIndex: 0, box: RelativeBox(x: 0.5, y: 0.5, width: 0.2, height: 0.4), line: 1),
            GroundTruthBox(classIndex: 2, box: RelativeBox(x: 0.25, y: 0.75, width: 0.1, height: 0.1), line: 4),
            GroundTruthBox(classIndex: 1, box: RelativeBox(x: 0.5, y: 0.5, width: 0.25, height: 0.25), line: 5),
        ])
        XCTAssertEqual(read.warnings, [])
        XCTAssertEqual(try labels("").boxes, [], "an image without objects has an empty label file")
    }

    func testMalformedLinesAreErrorsNamingFileAndLine() {
        assertRefused("0 0.5 0.5 0.2 0.4\n1 0.5 0.5 0.2\n", line: 2, .malformedLine("1 0.5 0.5 0.2"),
                      message: "set/a.txt:2: expected 'class x_center y_center width height', found '1 0.5 0.5 0.2'")
        assertRefused("0 0.5 0.5 0.2 0.4 0.9\n", line: 1, .malformedLine("0 0.5 0.5 0.2 0.4 0.9"),
                      message: "set/a.txt:1: expected 'class x_center y_center width height', found '0 0.5 0.5 0.2 0.4 0.9'")
        assertRefused("\n\ndog 0.5 0.5 0.2 0.4\n", line: 3, .malformedLine("dog 0.5 0.5 0.2 0.4"),
                      message: "set/a.txt:3: expected 'class x_center y_center width height', found 'dog 0.5 0.5 0.2 0.4'")
        assertRefused("0 0.5 half 0.2 0.4\n", line: 1, .malformedLine("0 0.5 half 0.2 0.4"),
                      message: "set/a.txt:1: expected 'class x_center y_center width height', found '0 0.5 half 0.2 0.4'")
        XCTAssertThrowsError(try LabelFile(bytes: [0x30, 0x20, 0xFF, 0xFE], path: "set/a.txt", classes: 3)) { error in
            XCTAssertEqual(error as? LabelFileError, LabelFileError(file: "set/a.txt", line: 1, reason: .notText))
        }
    }

    func testClassesOutsideTheNetworkAreErrors() {
        assertRefused("0 0.5 0.5 0.2 0.4\n3 0.5 0.5 0.2 0.4\n", line: 2, .classOutOfRange(value: "3", classes: 3),
                      message: "set/a.txt:2: class '3' is not a class index of the network (0...2)")
        assertRefused("-1 0.5 0.5 0.2 0.4\n", line: 1, .classOutOfRange(value: "-1", classes: 3),
                      message: "set/a.txt:1: class '-1' is not a class index of the network (0...2)")
        assertRefused("1.5 0.5 0.5 0.2 0.4\n", line: 1, .classOutOfRange(value: "1.5", classes: 3),
                      message: "set/a.txt:1: class '1.5' is not a class index of the network (0...2)")
    }

    func testNaNInfiniteAndNegativeSizesAreErrors() {
        assertRefused("0 nan 0.5 0.2 0.4\n", line: 1, .notFinite(field: "x_center", value: "nan"),
                      message: "set/a.txt:1: x_center is 'nan', expected a finite number")
        assertRefused("0 0.5 0.5 0.2 -inf\n", line: 1, .notFinite(field: "height", value: "-inf"),
                      message: "set/a.txt:1: height is '-inf', expected a finite number")
        assertRefused("0 0.5 0.5 -0.2 0.4\n", line: 1, .negativeSize(field: "width", value: "-0.2"),
                      message: "set/a.txt:1: width is -0.2, expected a size >= 0")
        assertRefused("0 0.5 0.5 0.2 0.4\n0 0.5 0.5 0.2 -1e-6\n", line: 2, .negativeSize(field: "height", value: "-1e-6"),
                      message: "set/a.txt:2: height is -1e-6, expected a size >= 0")
    }

    func testBoxesOutsideTheImageAndEmptyBoxesAreKeptWithWarnings() throws {
        let read = try labels("0 0.95 0.5 0.2 0.2\n1 0.5 0.5 0 0.3\n2 0.5 0.5 1.0 1.0\n0 -0.2 0.5 0.1 0.1\n")
        XCTAssertEqual(read.boxes.count, 4, "Darknet scores them as written")
        XCTAssertEqual(read.warnings, [LabelWarning(file: "set/a.txt", line: 1, kind: .outsideImage),
                                       LabelWarning(file: "set/a.txt", line: 2, kind: .empty),
                                       LabelWarning(file: "set/a.txt", line: 4, kind: .outsideImage)])
        XCTAssertEqual(read.warnings[0].description, "set/a.txt:1: the box reaches outside the image; scored as written")
    }

    func testLabelPathsAreWhereDarknetLooks() {
        XCTAssertEqual(LabelPaths.candidates(forImage: "data/obj/img1.jpg"), ["data/obj/img1.txt"])
        XCTAssertEqual(LabelPaths.candidates(forImage: "/d/images/a.b.png"), ["/d/images/a.b.txt", "/d/labels/a.b.txt"])
        XCTAssertEqual(LabelPaths.candidates(forImage: "/coco/images/val2017/000000000139.jpg"),
                       ["/coco/labels/val2017/000000000139.txt"])
        XCTAssertEqual(LabelPaths.candidates(forImage: "/voc/VOC2007/JPEGImages/000001.jpg"), ["/voc/VOC2007/labels/000001.txt"])
        XCTAssertEqual(LabelPaths.candidates(forImage: "photos/noextension"), ["photos/noextension.txt"])
    }
}
