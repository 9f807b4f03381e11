@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// A file given in another's place (the `.weights` as the `.cfg`, a web page saved as the
/// weights, a photo) is named for what it is, after the error that found it.
final class FileSignatureTests: XCTestCase {
    static let cfg = MalformedInputTests.weightsCfg
    static let html = Array("\n<!DOCTYPE html>\n<html lang=\"en\"><head><title>Page not found</title></head></html>\n".utf8)

    func testFirstBytesAreNamed() {
        let weights = MalformedInputTests.goodWeights()
        let cases: [([UInt8], String?)] = [
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8), "a JPEG image"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
            (Array("GIF89a".utf8), "a GIF image"),
            (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), "a WebP image"),
            ([0, 0, 0, 0x18] + Array("ftypmp42".utf8), "an MP4, MOV, HEIC or AVIF file"),
            ([0x1F, 0x8B, 0x08, 0], "a gzip archive (unpack it first)"),
            (Array("PK".utf8) + [3, 4, 20, 0], "a ZIP archive (unpack it first)"),
            (weights, "a Darknet .weights file"),
            (MalformedInputTests.goodWeights(minor: 1), "a Darknet .weights file"),
            (Self.html, "an HTML page (a download that returned a web page?)"),
            (Array(Self.cfg.utf8), FileSignature.cfg),
            (Array("# a comment\n[network]\nwidth=8\n".utf8), FileSignature.cfg),
            (Array("just some text\n".utf8), nil),
            (Array("[net]\nwidth=8".utf8) + [0], nil),
            ([], nil),
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(FileSignature.guess(bytes), expected, "\(bytes.prefix(12))")
        }
    }

    func testAWrongFileGivenAsTheCfgIsNamed() {
        func message(_ bytes: [UInt8]) -> String {
            do {
                _ = try CfgParser.parse(bytes: bytes, file: "model.cfg")
                return "parsed"
            } catch {
                return error.description
            }
        }
        XCTAssertTrue(message(MalformedInputTests.goodWeights()).hasSuffix(": not a .cfg but a Darknet .weights file"),
                      message(MalformedInputTests.goodWeights()))
        XCTAssertEqual(message([0xFF, 0xD8, 0xFF, 0xE0]), "model.cfg: not UTF-8 text (bad byte at offset 0): not a .cfg but a JPEG image")
        XCTAssertEqual(message(Self.html), "model.cfg:2: expected 'key=value', '[section]' or a comment, found '<!DOCTYPE html>': "
                       + "not a .cfg but an HTML page (a download that returned a web page?)")
        let page = Array(("<!DOCTYPE html>" + String(repeating: "<p>x</p>", count: 500)).utf8)
        XCTAssertEqual(message(page), "model.cfg:1: expected 'key=value', '[section]' or a comment, found "
                       + "'<!DOCTYPE html><p>x</p><p>x</p><p>x</p><p>x</p><p>x</p><p>x<...' (4015 characters): "
                       + "not a .cfg but an HTML page (a download that returned a web page?)")
        // A cfg's own mistakes say nothing more.
        XCTAssertEqual(message(Array("[net]\nwidth 8\n".utf8)), "model.cfg:2: expected 'key=value', '[section]' or a comment, found 'width 8'")
        XCTAssertEqual(message(Array("# header\nwidth 8\n".utf8)), "model.cfg:2: expected 'key=value', '[section]' or a comment, found 'width 8'")
    }

    func testAWrongFileGivenAsTheNamesIsNamed() throws {
        let directory = try temporaryDirectory("names")
        let photo = directory.appendingPathComponent("dog.jpg"), text = directory.appendingPathComponent("latin1.names")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: photo)
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: text)
        XCTAssertThrowsError(try ClassLabels.read(photo)) {
            XCTAssertEqual("\($0)", "\(photo.path): not UTF-8 text: not a names file but a JPEG image")
        }
        XCTAssertThrowsError(try ClassLabels.read(text)) { XCTAssertEqual("\($0)", "\(text.path): not UTF-8 text") }
    }

    /// A quoted line or value is cut after 60 characters when it has more than 80.
    func testLongTextIsQuotedAsAnExcerpt() {
        let a = { (count: Int) in String(repeating: "a", count: count) }
        XCTAssertEqual(quotedExcerpt(a(80)), "'\(a(80))'")
        XCTAssertEqual(quotedExcerpt(a(81)), "'\(a(60))...' (81 characters)")
        XCTAssertEqual(quotedExcerpt(""), "''")
    }

    func testAWrongFileGivenAsTheWeightsIsNamed() throws {
        let spec = try NetworkSpec.parse(text: Self.cfg, file: "model.cfg")
        func message(_ bytes: [UInt8]) -> String {
            do {
                _ = try Network(spec: spec, weights: Data(bytes), weightsName: "model.weights")
                return "loaded"
            } catch {
                return String(describing: error)
            }
        }
        XCTAssertEqual(message(Self.html), "model.weights: byte offset 0: invalid version 1143028746.1498694479.1746945360: "
                       + "not a .weights file but an HTML page (a download that returned a web page?)")
        XCTAssertTrue(message(Array(Self.cfg.utf8)).hasSuffix(": not a .weights file but a Darknet .cfg"), message(Array(Self.cfg.utf8)))
        XCTAssertTrue(message([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
                        .hasSuffix(": not a .weights file but a PNG image"))
        // A version Darknet cannot have, in bytes that say nothing else: no guess.
        var header = MalformedInputTests.goodWeights()
        header.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(message(header), "model.weights: byte offset 0: invalid version -1.2.0")
    }
}
