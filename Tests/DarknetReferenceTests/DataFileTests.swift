@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

/// Darknet `.data` files: Debian's own, one of the kind Darknet's training writes, and
/// Darknet's upstream layout with paths relative to its folder.
final class DataFileTests: XCTestCase {
    static let debian = URL(fileURLWithPath: "/usr/share/darknet/cfg")
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try temporaryDirectory("data-file")
    }

    func write(_ text: String, to relative: String) throws -> URL { try writeText(text, to: relative, in: scratch) }

    /// Debian's coco.data and voc.data (installed with the `darknet` package that
    /// scripts/setup.sh installs), and the copies in Weights/darknet/cfg.
    func testDebiansCocoAndVocDataFiles() throws {
        for folder in [Self.debian, TestPaths.darknetCfg] {
            let coco = try DataFile(contentsOf: try TestPaths.require(folder.appendingPathComponent("coco.data")))
            XCTAssertEqual(coco.classes, 80)
            XCTAssertEqual(coco.names?.path, "/usr/share/darknet/data/coco.names")
            XCTAssertEqual(try coco.labels().count, 80)
            XCTAssertEqual(try coco.labels()[16], "dog")
            XCTAssertEqual(coco.values["valid"], "coco_testdev", "the commented-out valid= is ignored")
            XCTAssertEqual(coco.values["eval"], "coco")
            let voc = try DataFile(contentsOf: try TestPaths.require(folder.appendingPathComponent("voc.data")))
            XCTAssertEqual(voc.classes, 20)
            XCTAssertEqual(try voc.labels().count, 20)
            XCTAssertEqual(voc.values["backup"], "backup")
        }
    }

    /// What Darknet's training writes (`data/obj.data`, run from Darknet's folder): relative
    /// paths are tried in the working directory, beside the file, then in its parent.
    func testATrainedModelsDataFileResolvesNamesLikeDarknetThenBesideThenAbove() throws {
        let data = try write("classes = 3\ntrain  = data/train.txt\nvalid  = data/test.txt\nnames = data/obj.names\nbackup = backup/\n",
                             to: "darknet/data/obj.data")
        _ = try write("cat\ndog\nbird\n", to: "darknet/data/obj.names")
        let elsewhere = scratch.appendingPathComponent("elsewhere")
        // Not in the working directory, not beside it (data/data/obj.names): in its parent.
        let fromParent = try DataFile(contentsOf: data, workingDirectory: elsewhere)
        XCTAssertEqual(fromParent.names?.path, scratch.appendingPathComponent("darknet/data/obj.names").standardizedFileURL.path)
        XCTAssertEqual(fromParent.classes, 3)
        XCTAssertEqual(try fromParent.labels(), ["cat", "dog", "bird"])
        // Darknet's own rule comes first: the working directory's data/obj.names wins.
        _ = try write("one\ntwo\nthree\n", to: "elsewhere/data/obj.names")
        XCTAssertEqual(try DataFile(contentsOf: data, workingDirectory: elsewhere).labels(), ["one", "two", "three"])
        // Beside the .data file.
        let beside = try write("names=my.names\n", to: "model/my.data")
        _ = try write("a\n", to: "model/my.names")
        XCTAssertEqual(try DataFile(contentsOf: beside, workingDirectory: elsewhere).labels(), ["a"])
    }

    /// Darknet's upstream layout: `cfg/coco.data` saying `names = data/coco.names`.
    func testUpstreamLayoutAndTolerantSyntax() throws {
        let data = try write("\u{FEFF}# comment\r\n\r\n classes= 2 \r\n; another\r\nnames = data/coco.names\r\nclasses=5\r\n", to: "up/cfg/coco.data")
        _ = try write("x\ny\n", to: "up/data/coco.names")
        let file = try DataFile(contentsOf: data, workingDirectory: scratch)
        XCTAssertEqual(file.classes, 2, "the first of a repeated key, as Darknet's option_find")
        XCTAssertNil(file.top)
        XCTAssertEqual(try file.labels(), ["x", "y"])
    }

    func testErrorsNameTheDataFileItsLineAndEveryPlaceTried() throws {
        let missing = try write("classes=1\nnames=data/none.names\n", to: "m/cfg/a.data")
        XCTAssertThrowsError(try DataFile(contentsOf: missing, workingDirectory: scratch)) { error in
            let expected = [scratch.appendingPathComponent("data/none.names"), scratch.appendingPathComponent("m/cfg/data/none.names"),
                            scratch.appendingPathComponent("m/data/none.names")].map(\.standardizedFileURL.path)
            XCTAssertEqual(error as? DataFileError, DataFileError(file: missing.path, line: 2, key: "names",
                                                                   reason: .fileNotFound(value: "data/none.names", tried: expected)))
            XCTAssertEqual(error.localizedDescription, "\(missing.path):2: 'names': 'data/none.names' not found (tried \(expected.joined(separator: ", ")))")
        }
        let malformed = try write("classes=1\nnames\n", to: "bad.data")
        XCTAssertThrowsError(try DataFile(contentsOf: malformed)) { error in
            XCTAssertEqual(error as? DataFileError, DataFileError(file: malformed.path, line: 2, key: nil, reason: .malformedLine("names")))
        }
        let badClasses = try write("classes=many\n", to: "classes.data")
        XCTAssertThrowsError(try DataFile(contentsOf: badClasses)) { error in
            XCTAssertEqual((error as? DataFileError)?.reason, .invalidValue(value: "many", expected: "an integer >= 1"))
            XCTAssertEqual((error as? DataFileError)?.line, 1)
        }
        let badTop = try write("classes=3\ntop=0\n", to: "top.data")
        XCTAssertThrowsError(try DataFile(contentsOf: badTop)) { error in
            XCTAssertEqual(error as? DataFileError, DataFileError(file: badTop.path, line: 2, key: "top",
                                                                   reason: .invalidValue(value: "0", expected: "an integer >= 1")))
        }
        XCTAssertEqual(try DataFile(contentsOf: try write("classes=3\ntop = 2\n", to: "top2.data")).top, 2)
        XCTAssertThrowsError(try DataFile(contentsOf: scratch.appendingPathComponent("none.data"))) { error in
            XCTAssertEqual((error as? FileError)?.reason, "No such file or directory")
        }
    }

    /// A detector from coco.data; voc.data's 20 classes against YOLOv3-tiny's 80 name both files.
    func testDetectorFromADataFileChecksItsClassesAgainstTheCfg() throws {
        let cfg = try TestPaths.require(TestPaths.tinyCfg)
        let weights = try TestPaths.require(TestPaths.tinyWeights)
        let coco = try TestPaths.require(Self.debian.appendingPathComponent("coco.data"))
        let detector = try Detector(data: coco, cfg: cfg, weights: weights)
        XCTAssertEqual(detector.labels.count, 80)
        XCTAssertEqual(detector.labels[0], "person")
        let voc = try TestPaths.require(Self.debian.appendingPathComponent("voc.data"))
        XCTAssertThrowsError(try Detector(data: voc, cfg: cfg, weights: weights)) { error in
            XCTAssertEqual(error as? DataFileError, DataFileError(file: voc.path, line: nil, key: "classes", reason: .classCountMismatch(
                classes: 20, cfg: cfg.path, networkClasses: 80, what: "classes")))
            XCTAssertEqual("\(error)", "\(voc.path): 'classes': classes=20, but \(cfg.path) has 80 classes: "
                           + "the .data file and the cfg do not belong together")
        }
    }

    /// A classifier from Debian's imagenet1k.data (1000 classes, imagenet.shortnames.list).
    func testClassifierFromImagenetData() throws {
        let cfgURL = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("tiny.cfg"))
        let spec = try NetworkSpec.parse(bytes: [UInt8](try Data(contentsOf: cfgURL)), file: cfgURL.path)
        let weights = scratch.appendingPathComponent("tiny.weights")
        try Data(try WeightsWriter().randomBytes(for: spec, seed: 5)).write(to: weights)
        let data = try TestPaths.require(Self.debian.appendingPathComponent("imagenet1k.data"))
        let classifier = try Classifier(data: data, cfg: cfgURL, weights: weights)
        // The list holds ImageNet-22k's 21842 names; Darknet's 1000 outputs use the first 1000.
        XCTAssertEqual(classifier.labels.count, 21842)
        XCTAssertEqual(classifier.network.plan.layers[classifier.outputLayer].outputShape.count, 1000)
        let two = try write("classes=2\nnames=/usr/share/darknet/data/imagenet.shortnames.list\n", to: "two.data")
        XCTAssertThrowsError(try Classifier(data: two, cfg: cfgURL, weights: weights)) { error in
            guard case .classCountMismatch(2, _, 1000, "outputs")? = (error as? DataFileError)?.reason else { return XCTFail("\(error)") }
        }
    }
}
