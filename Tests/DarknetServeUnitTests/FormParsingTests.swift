@testable import DarknetServe
import TestSupport
import XCTest

/// The DeepStack form: `Content-Type`, the multipart body and its fields, each malformed way
/// named with its byte offset.
final class FormParsingTests: XCTestCase {
    private let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("\r\n--not-the-boundary\r\n".utf8) + [0x00, 0xFF, 0xD9]

    private func form(_ build: (inout MultipartBody) -> Void) -> MultipartBody {
        var body = MultipartBody()
        build(&body)
        return body
    }

    func testReadsTheImageAndTheFields() throws {
        let body = form {
            $0.field("api_key", "secret")
            $0.file("image", filename: "dog.jpg", image)
            $0.field("min_confidence", " 0.25 ")
        }
        let request = try DetectionRequest(contentType: body.contentType, body: body.finished)
        XCTAssertEqual(Array(request.image), image)
        XCTAssertEqual(request.filename, "dog.jpg")
        XCTAssertEqual(request.minimumConfidence, 0.25)
        XCTAssertEqual(request.apiKey, "secret")
    }

    func testContentTypeVariants() throws {
        let body = form { $0.file("image", image) }
        for contentType in ["multipart/form-data; boundary=\(body.boundary)", "Multipart/Form-Data;boundary=\"\(body.boundary)\"",
                            "multipart/form-data; charset=utf-8; BOUNDARY=\(body.boundary);"] {
            XCTAssertEqual(Array(try DetectionRequest(contentType: contentType, body: body.finished).image), image, contentType)
        }
        let request = try DetectionRequest(contentType: body.contentType, body: Array("preamble\r\n".utf8) + body.finished + Array("epilogue".utf8))
        XCTAssertEqual(Array(request.image), image, "a preamble and an epilogue are allowed")
        XCTAssertNil(request.minimumConfidence)
    }

    func testRefusals() {
        let good = form { $0.file("image", image) }
        let goodType = good.contentType
        let cases: [(String, String?, [UInt8], FormError)] = [
            ("no Content-Type", nil, good.finished, .notMultipart(contentType: nil)),
            ("JSON", "application/json", good.finished, .notMultipart(contentType: "application/json")),
            ("urlencoded", "application/x-www-form-urlencoded", Array("image=abc".utf8),
             .notMultipart(contentType: "application/x-www-form-urlencoded")),
            ("no boundary", "multipart/form-data", good.finished,
             .malformedContentType("multipart/form-data", reason: "multipart/form-data without a boundary parameter")),
            ("unclosed quote", "multipart/form-data; boundary=\"abc", good.finished,
             .malformedContentType("multipart/form-data; boundary=\"abc", reason: "parameter 'boundary' has an unclosed quote")),
            ("another boundary", "multipart/form-data; boundary=other", good.finished,
             .malformedBody(offset: 0, expected: "the boundary '--other'")),
            ("truncated", goodType, Array(good.finished.dropLast(12)),
             .malformedBody(offset: good.finished.count - 12,
                            expected: "the boundary '--\(good.boundary)' after the part's contents (the body is truncated)")),
            ("empty body", goodType, [], .malformedBody(offset: 0, expected: "the boundary '--\(good.boundary)'")),
            ("no image field", goodType, form { $0.field("api_key", "x"); $0.file("picture", image) }.finished,
             .missingField("image", fields: ["api_key", "picture"])),
            ("no fields", goodType, Array("--\(good.boundary)--\r\n".utf8), .missingField("image", fields: [])),
            ("empty image", goodType, form { $0.file("image", filename: "empty.jpg", []) }.finished,
             .invalidField("image", value: "empty.jpg", expected: "an image file (the file is empty)")),
            ("min_confidence text", goodType, form { $0.file("image", image); $0.field("min_confidence", "high") }.finished,
             .invalidField("min_confidence", value: "high", expected: "a number from 0 to 1")),
            ("min_confidence above 1", goodType, form { $0.file("image", image); $0.field("min_confidence", "40") }.finished,
             .invalidField("min_confidence", value: "40", expected: "a number from 0 to 1")),
            ("min_confidence nan", goodType, form { $0.file("image", image); $0.field("min_confidence", "nan") }.finished,
             .invalidField("min_confidence", value: "nan", expected: "a number from 0 to 1")),
        ]
        for (name, contentType, body, expected) in cases {
            XCTAssertThrowsError(try DetectionRequest(contentType: contentType, body: body), name) { error in
                XCTAssertEqual(error as? FormError, expected, name)
            }
        }
    }

    func testMalformedBodiesNameTheOffset() {
        let boundary = "b"
        let contentType = "multipart/form-data; boundary=\(boundary)"
        let cases: [(String, String, FormError)] = [
            ("LF line ends", "--b\nContent-Disposition: form-data; name=\"image\"\n\nxx\n--b--\n",
             .malformedBody(offset: 3, expected: "CRLF after the boundary")),
            ("no disposition", "--b\r\nContent-Type: image/jpeg\r\n\r\nxx\r\n--b--\r\n",
             .malformedBody(offset: 5, expected: "a 'Content-Disposition: form-data; name=...' header in the part")),
            ("disposition without a name", "--b\r\nContent-Disposition: form-data\r\n\r\nxx\r\n--b--\r\n",
             .malformedBody(offset: 5, expected: "'Content-Disposition: form-data; name=...'")),
            ("header without a colon", "--b\r\nContent-Disposition: form-data; name=image\r\nGarbage\r\n\r\nxx\r\n--b--\r\n",
             .malformedBody(offset: 49, expected: "a part header 'Name: value'")),
            ("headers cut off", "--b\r\nContent-Disposition: form-data; name=image",
             .malformedBody(offset: 47, expected: "a header line ending in CRLF (the body is truncated)")),
            ("nothing after the boundary", "--b",
             .malformedBody(offset: 3, expected: "CRLF after the boundary (the body is truncated)")),
        ]
        for (name, body, expected) in cases {
            XCTAssertThrowsError(try MultipartForm(body: Array(body.utf8), boundary: boundary), name) { error in
                XCTAssertEqual(error as? FormError, expected, name)
            }
            XCTAssertThrowsError(try DetectionRequest(contentType: contentType, body: Array(body.utf8)), name)
        }
        let long = "--b\r\nContent-Disposition: form-data; name=image\r\nX-Padding: " + String(repeating: "a", count: 9000) + "\r\n\r\nxx\r\n--b--\r\n"
        XCTAssertThrowsError(try MultipartForm(body: Array(long.utf8), boundary: boundary)) { error in
            // Checked line by line: the offset is the end of the line that went past the limit.
            XCTAssertEqual(error as? FormError, .malformedBody(offset: 9062, expected: "the end of the part's headers within 8192 bytes"))
        }
        let many = (0...MultipartForm.maximumParts).map { "--b\r\nContent-Disposition: form-data; name=f\($0)\r\n\r\nv\r\n" }.joined() + "--b--\r\n"
        XCTAssertThrowsError(try MultipartForm(body: Array(many.utf8), boundary: boundary)) { error in
            XCTAssertEqual(error as? FormError, .tooManyParts(limit: 64))
        }
    }

    func testPartsKeepTheirBytesAndNames() throws {
        let body = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--xy\r\n--xyz\r\ncontent-disposition: FORM-DATA; name=b; filename=\"q\\\"t.png\"\r\n"
            + "content-type: image/png\r\n\r\n\r\n--xyz   \t\r\nContent-Disposition: form-data; name=c\r\n\r\n\r\n--xyz--"
        let form = try MultipartForm(body: Array(body.utf8), boundary: "xyz")
        XCTAssertEqual(form.parts.map(\.name), ["a", "b", "c"])
        XCTAssertEqual(form.parts.map { String(decoding: Array(body.utf8)[$0.contents], as: UTF8.self) }, ["\r\n--xy", "", ""])
        XCTAssertEqual(form.parts[1].filename, "q\"t.png")
        XCTAssertEqual(form.parts[1].contentType, "image/png")
    }

    func testFind() {
        let haystack = Array("aab\r\n--b\r\n--bound".utf8)
        XCTAssertEqual(MultipartForm.find(Array("\r\n--bound".utf8), in: haystack, from: 0), 8)
        XCTAssertEqual(MultipartForm.find(Array("a".utf8), in: haystack, from: 1), 1)
        XCTAssertEqual(MultipartForm.find(Array("bound".utf8), in: haystack, from: 12), 12)
        XCTAssertNil(MultipartForm.find(Array("bound".utf8), in: haystack, from: 13))
        XCTAssertNil(MultipartForm.find(Array("x".utf8), in: [], from: 0))
        XCTAssertNil(MultipartForm.find(Array("a".utf8), in: haystack, from: 99))
    }

    /// Every serving error type reads as its message, `localizedDescription` included.
    func testServingErrorsReadAsTheirMessage() {
        assertMessages([
            (FormError.notMultipart(contentType: nil),
             "the request has no Content-Type; expected multipart/form-data with an 'image' file field"),
            (TensorError.frameCount(1), "the request has 1 frame(s); expected 2: a JSON header and the tensor's bytes"),
            (ServeError.unauthorized, "incorrect api_key"),
            (ServeStartError.zmq(endpoint: "ipc:///x/y", reason: "No such file or directory"),
             "cannot bind the ZMQ endpoint ipc:///x/y: No such file or directory"),
        ])
    }
}
