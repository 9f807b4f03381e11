@testable import Darknet
@testable import DarknetServe
import XCTest

/// Frigate's ZMQ request: the header, the layouts, the element types, and each refusal.
final class TensorRequestTests: XCTestCase {
    private func header(_ json: String) -> [UInt8] { Array(json.utf8) }

    /// A 4x2 picture whose pixel (y, x) has R = 10y + x, G = 100 + R, B = 200 + R.
    private let width = 4, height = 2
    private func value(_ channel: Int, _ y: Int, _ x: Int) -> UInt8 { UInt8(100 * channel + 10 * y + x) }

    private func nhwc() -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x in (0..<3).map { value($0, y, x) } } }
    }

    private func nchw() -> [UInt8] {
        (0..<3).flatMap { c in (0..<height).flatMap { y in (0..<width).map { value(c, y, $0) } } }
    }

    private func expectedImage(order: [Int] = [0, 1, 2]) -> [Float] {
        order.flatMap { c in (0..<height).flatMap { y in (0..<width).map { Float(Double(value(c, y, $0)) / 255) } } }
    }

    func testLayoutsFromTheShape() throws {
        let shapes: [(String, [UInt8], TensorRequest.Layout)] = [
            ("[1, 2, 4, 3]", nhwc(), .nhwc), ("[2, 4, 3]", nhwc(), .nhwc), ("[1, 3, 2, 4]", nchw(), .nchw), ("[3, 2, 4]", nchw(), .nchw),
        ]
        for (shape, bytes, layout) in shapes {
            let request = try TensorRequest(frames: [header(#"{"shape": \#(shape), "dtype": "uint8", "model_type": "yolo-generic"}"#), bytes])
            XCTAssertEqual(request.layout, layout, shape)
            XCTAssertEqual([request.width, request.height], [4, 2], shape)
            XCTAssertEqual(request.modelType, "yolo-generic")
            let image = try request.image(channelOrder: .rgb, floatRange: .unit)
            XCTAssertEqual(image.pixels, expectedImage(), shape)
            XCTAssertEqual(try request.image(channelOrder: .bgr, floatRange: .unit).pixels, expectedImage(order: [2, 1, 0]), "\(shape) bgr")
        }
    }

    func testBytesBecomeWhatAnImageFileDecodesTo() throws {
        let request = try TensorRequest(frames: [header(#"{"shape": [1, 2, 4, 3], "dtype": "uint8"}"#), nhwc()])
        let pixels = try PixelBuffer(format: .rgb, width: width, height: height, bytes: nhwc())
        XCTAssertEqual(try request.image(channelOrder: .rgb, floatRange: .unit), PlanarImage(pixels: pixels))
    }

    /// A tensor for a greyscale (`channels=1`) network becomes the grey a BGR frame of the same
    /// bytes gives it (OpenCV's `cvtColor` weights, `Luma`), whatever the channel order says.
    func testTensorsForAGreyNetworkAreConvertedAsFramesAre() throws {
        let cfg = "[net]\nwidth=8\nheight=8\nchannels=1\n[convolutional]\nfilters=4\nsize=3\npad=1\nactivation=leaky\n"
            + "[convolutional]\nfilters=6\nsize=1\nactivation=linear\n[yolo]\nmask=0\nanchors=10,14\nnum=1\nclasses=1\n"
        let network = try Network(spec: try NetworkSpec.parse(text: cfg, file: "grey.cfg"), randomSeed: 1)
        let model = ServedModel(name: "grey", detector: try Detector(network: network), loadSeconds: 0)
        let frame = try PixelBuffer(format: .rgb, width: width, height: height, bytes: nhwc())
        let expected = try frame.letterboxed(width: 8, height: 8, channels: 1)
        let request = try TensorRequest(frames: [header(#"{"shape": [1, 2, 4, 3], "dtype": "uint8"}"#), nhwc()])
        let service = DetectionService(maxPixels: 1 << 20, options: DetectionOptions(), tensorChannelOrder: .rgb, tensorFloatRange: .unit)
        let prepared = try service.prepare(request, for: model)
        XCTAssertEqual(prepared.input.channels, 1)
        XCTAssertEqual(prepared.input.pixels, expected.image.pixels)
        XCTAssertEqual(prepared.geometry, expected.geometry)
        // The same bytes read as BGR are another picture: the bytes a BGR frame holds.
        let bgr = DetectionService(maxPixels: 1 << 20, options: DetectionOptions(), tensorChannelOrder: .bgr, tensorFloatRange: .unit)
        let bgrFrame = try PixelBuffer(format: .bgr, width: width, height: height, bytes: nhwc())
        XCTAssertEqual(try bgr.prepare(request, for: model).input.pixels, try bgrFrame.letterboxed(width: 8, height: 8, channels: 1).image.pixels)
    }

    func testFloatTensors() throws {
        let unit = nhwc().map { Float(Double($0) / 255) }
        let request = try TensorRequest(frames: [header(#"{"shape": [1, 2, 4, 3], "dtype": "float32"}"#), floatBytes(unit)])
        XCTAssertEqual(request.elementType, .float32)
        XCTAssertEqual(try request.image(channelOrder: .rgb, floatRange: .unit).pixels, expectedImage())
        let denormalized = try TensorRequest(frames: [header(#"{"shape": [1, 2, 4, 3], "dtype": "float32"}"#), floatBytes(nhwc().map(Float.init))])
        XCTAssertEqual(try denormalized.image(channelOrder: .rgb, floatRange: .byte).pixels, expectedImage())
        XCTAssertThrowsError(try denormalized.image(channelOrder: .rgb, floatRange: .unit)) { error in
            // Channel by channel: red's third pixel (value 2) is the first above 1.
            XCTAssertEqual(error as? TensorError, .valueOutOfRange(element: 6, value: 2, range: 0...1))
            XCTAssertTrue("\(error)".contains("--zmq-float-range 255"), "\(error)")
        }
        var bad = unit
        bad[7] = .nan
        let withNaN = try TensorRequest(frames: [header(#"{"shape": [1, 2, 4, 3], "dtype": "float32"}"#), floatBytes(bad)])
        XCTAssertThrowsError(try withNaN.image(channelOrder: .rgb, floatRange: .unit)) { error in
            guard case .valueOutOfRange(7, let value, _)? = error as? TensorError else { return XCTFail("\(error)") }   // pixel 2's green
            XCTAssertTrue(value.isNaN)
        }
    }

    func testRefusals() {
        let bytes = nhwc()
        let cases: [(String, [[UInt8]], TensorError)] = [
            ("one frame", [bytes], .frameCount(1)),
            ("three frames", [header(#"{"shape": [1, 2, 4, 3], "dtype": "uint8"}"#), bytes, bytes], .frameCount(3)),
            ("not JSON", [header("shape=1,2,3"), bytes], .headerNotJSON(reason: "not a JSON object (11 bytes)")),
            ("a JSON list", [header("[1, 2, 4, 3]"), bytes], .headerNotJSON(reason: "not a JSON object (12 bytes)")),
            ("no shape", [header(#"{"dtype": "uint8"}"#), bytes], .headerField("shape", expected: "a list of integers")),
            ("no dtype", [header(#"{"shape": [1, 2, 4, 3]}"#), bytes], .headerField("dtype", expected: "\"uint8\" or \"float32\"")),
            ("shape of strings", [header(#"{"shape": ["1", "2"], "dtype": "uint8"}"#), bytes], .headerField("shape", expected: "a list of integers")),
            ("fractional shape", [header(#"{"shape": [1, 2.5, 3, 3], "dtype": "uint8"}"#), bytes], .headerField("shape", expected: "a list of integers")),
            ("dtype a number", [header(#"{"shape": [1, 2, 4, 3], "dtype": 8}"#), bytes], .headerField("dtype", expected: "\"uint8\" or \"float32\"")),
            ("int16", [header(#"{"shape": [1, 2, 4, 3], "dtype": "int16"}"#), bytes], .unsupportedType("int16")),
            ("four channels", [header(#"{"shape": [1, 2, 4, 4], "dtype": "uint8"}"#), bytes], .unsupportedShape([1, 2, 4, 4])),
            ("batch of two", [header(#"{"shape": [2, 2, 4, 3], "dtype": "uint8"}"#), bytes], .unsupportedShape([2, 2, 4, 3])),
            ("zero height", [header(#"{"shape": [1, 0, 4, 3], "dtype": "uint8"}"#), []], .unsupportedShape([1, 0, 4, 3])),
            ("negative width", [header(#"{"shape": [1, 2, -4, 3], "dtype": "uint8"}"#), bytes], .unsupportedShape([1, 2, -4, 3])),
            ("flat", [header(#"{"shape": [24], "dtype": "uint8"}"#), bytes], .unsupportedShape([24])),
            ("overflowing", [header(#"{"shape": [1, 4294967296, 4294967296, 3], "dtype": "uint8"}"#), bytes],
             .unsupportedShape([1, 4_294_967_296, 4_294_967_296, 3])),
            ("huge", [header(#"{"shape": [1, 1e300, 4, 3], "dtype": "uint8"}"#), bytes], .headerField("shape", expected: "a list of integers")),
            ("short tensor", [header(#"{"shape": [1, 2, 4, 3], "dtype": "uint8"}"#), Array(bytes.dropLast())], .byteCount(expected: 24, actual: 23)),
            ("uint8 bytes for float32", [header(#"{"shape": [1, 2, 4, 3], "dtype": "float32"}"#), bytes], .byteCount(expected: 96, actual: 24)),
            ("header too long", [Array(repeating: 0x20, count: 5000), bytes], .headerNotJSON(reason: "5000 bytes, more than 4096")),
        ]
        for (name, frames, expected) in cases {
            XCTAssertThrowsError(try TensorRequest(frames: frames), name) { error in
                XCTAssertEqual(error as? TensorError, expected, name)
            }
        }
        XCTAssertThrowsError(try TensorRequest(frames: [header(#"{"shape": [1, 2000, 2000, 3], "dtype": "uint8"}"#), []], maxPixels: 1_000_000)) {
            XCTAssertEqual($0 as? TensorError, .unsupportedShape([1, 2000, 2000, 3]))
        }
    }

    func testAmbiguousShapeIsReadAsFrigatesDefault() throws {
        let request = try TensorRequest(frames: [header(#"{"shape": [1, 3, 4, 3], "dtype": "uint8"}"#), [UInt8](repeating: 0, count: 36)])
        XCTAssertEqual(request.layout, .nhwc)
        XCTAssertEqual([request.width, request.height], [4, 3])
    }

    func testReplyRows() throws {
        let detections = [
            Detection(classIndex: 16, label: "dog", confidence: 0.75, objectness: 0.9, box: RelativeBox(x: 0.5, y: 0.5, width: 0.5, height: 0.5),
                      rect: PixelRect(left: 100, top: 50, right: 300, bottom: 150)),
        ] + (0..<25).map {
            Detection(classIndex: 2, label: "car", confidence: 0.5 - Float($0) / 100, objectness: 0.9,
                      box: RelativeBox(x: 0.5, y: 0.5, width: 0.1, height: 0.1), rect: PixelRect(left: 0, top: 0, right: 40, bottom: 20))
        }
        let reply = FrigateDetections(detections, width: 400, height: 200)
        XCTAssertEqual(reply.values.count, 120)
        XCTAssertEqual(Array(reply.values[0..<6]), [16, 0.75, 0.25, 0.25, 0.75, 0.75])
        XCTAssertEqual(reply.values[6 * 19 + 1], 0.5 - 18 / 100, "twenty rows, the first twenty detections")
        XCTAssertEqual(reply.bytes.count, 480)
        XCTAssertEqual(Array(reply.bytes[4..<8]), withUnsafeBytes(of: Float(0.75).bitPattern.littleEndian) { Array($0) })
        let empty = FrigateDetections([], width: 10, height: 10)
        XCTAssertEqual(empty.values, [Float](repeating: 0, count: 120))
    }

    private func floatBytes(_ values: [Float]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }
}
