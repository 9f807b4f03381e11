import BatchDetection
import Foundation
import TestSupport
import XCTest

/// Where a batch's images come from: directories, `--recursive`, list files.
final class ImageInputsTests: XCTestCase {
    func testDirectoryGivesItsImagesSortedAndRecursiveDescends() throws {
        let root = try temporaryDirectory("batch")
        let sub = root.appendingPathComponent("sub/deeper")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for name in ["b.jpg", "a.PNG", "c.JpEg", "notes.txt", "noext", ".hidden.jpg", "sub/x.jpg", "sub/deeper/y.png"] {
            try Data([0]).write(to: root.appendingPathComponent(name))
        }
        let base = root.path
        XCTAssertEqual(try ImageInputs.expand([base], recursive: false), ["\(base)/a.PNG", "\(base)/b.jpg", "\(base)/c.JpEg"])
        XCTAssertEqual(try ImageInputs.expand([base], recursive: true),
                       ["\(base)/a.PNG", "\(base)/b.jpg", "\(base)/c.JpEg", "\(base)/sub/deeper/y.png", "\(base)/sub/x.jpg"])
        // Files are kept as given, missing ones too (they fail later as that image's error).
        XCTAssertEqual(try ImageInputs.expand(["missing.jpg", "\(base)/sub"], recursive: false),
                       ["missing.jpg", "\(base)/sub/x.jpg"])
    }

    func testDirectoryGivesEveryFormatImageReads() throws {
        let root = try temporaryDirectory("batch")
        let names = ["a.bmp", "b.DIB", "c.tif", "d.TIFF", "e.webp", "f.pbm", "g.pgm", "h.ppm", "i.pnm", "j.HEIC", "k.avif", "l.gif", "m.jxl"]
        for name in names {
            try Data([0]).write(to: root.appendingPathComponent(name))
        }
        XCTAssertEqual(try ImageInputs.expand([root.path], recursive: false), names.dropLast(2).map { "\(root.path)/\($0)" })
    }

    func testDirectoryWithoutImagesIsAnErrorNamingIt() throws {
        let root = try temporaryDirectory("batch")
        try Data([0]).write(to: root.appendingPathComponent("readme.txt"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data([0]).write(to: root.appendingPathComponent("sub/only-below.jpg"))
        XCTAssertThrowsError(try ImageInputs.expand([root.path], recursive: false)) { error in
            XCTAssertEqual(error as? BatchInputError, .noImages(directory: root.path, recursive: false))
            XCTAssertTrue(String(describing: error).contains(root.path))
        }
        XCTAssertEqual(try ImageInputs.expand([root.path], recursive: true), [root.path + "/sub/only-below.jpg"])
    }

    func testSymbolicLinkLoopDoesNotHang() throws {
        let root = try temporaryDirectory("batch")
        try Data([0]).write(to: root.appendingPathComponent("a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: root.path)
        XCTAssertEqual(try ImageInputs.expand([root.path], recursive: true), [root.path + "/a.jpg"])
    }

    func testListIsOnePathPerLineAsDarknetReadsIt() {
        let text = "a.jpg\n\nwith space.png\r\n  leading.jpg\nlast-without-newline.jpg"
        XCTAssertEqual(ImageInputs.paths(inList: Array(text.utf8)),
                       ["a.jpg", "with space.png", "  leading.jpg", "last-without-newline.jpg"])
        XCTAssertEqual(ImageInputs.paths(inList: Array("\n\n".utf8)), [])
    }

    func testListFileErrorsNameTheFile() throws {
        let root = try temporaryDirectory("batch")
        let missing = root.appendingPathComponent("missing.list").path
        XCTAssertThrowsError(try ImageInputs.readList(missing)) { error in
            XCTAssertEqual(error as? BatchInputError, .unreadableList(path: missing))
        }
        let empty = root.appendingPathComponent("empty.list")
        try Data("\n\n".utf8).write(to: empty)
        XCTAssertThrowsError(try ImageInputs.readList(empty.path)) { error in
            XCTAssertEqual(error as? BatchInputError, .emptyList(path: empty.path))
        }
        let list = root.appendingPathComponent("images.list")
        try Data("x.jpg\ny.png\n".utf8).write(to: list)
        XCTAssertEqual(try ImageInputs.readList(list.path), ["x.jpg", "y.png"])
    }
}
