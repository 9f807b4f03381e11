@_spi(Testing) import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// A `channels=1` detector (YOLOv3-tiny's cfg with one input channel, seeded random weights)
/// fed a camera's YUV frames: the luma plane goes straight in, so an NV12 frame detects exactly
/// as a gray buffer of its Y plane, through `detect` and through a `DetectionPipeline`.
final class GreyscaleNetworkTests: XCTestCase {
    func testYUVFramesGoStraightIntoAOneChannelDetector() async throws {
        let text = try String(contentsOf: try TestPaths.require(TestPaths.tinyCfg), encoding: .utf8)
        XCTAssertTrue(text.contains("channels=3"))
        let spec = try NetworkSpec.parse(text: text.replacingOccurrences(of: "channels=3", with: "channels=1"), file: "tiny-grey.cfg")
            .resized(width: 224, height: 224)
        let network = try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: 56))
        XCTAssertEqual(network.inputShape.channels, 1)
        let detector = try Detector(network: network)

        // The photo's green plane as the luma of a 768x576 frame, random chroma beside it.
        let photo = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let (width, height) = (photo.width, photo.height)
        let luma = photo.pixels[(width * height)..<(2 * width * height)].map { UInt8(($0 * 255).rounded()) }
        var random = TestRandom(seed: 7)
        let chroma = (0..<(width * height / 2)).map { _ in UInt8(random.next(below: 256)) }
        let gray = try PixelBuffer(format: .gray, width: width, height: height, bytes: luma)
        let nv12 = try PixelBuffer(format: .nv12(.video), width: width, height: height,
                                   planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: chroma, bytesPerRow: width)])
        let options = DetectionOptions(threshold: 0.05)
        let expected = try await detector.detect(gray, options: options)
        XCTAssertFalse(expected.isEmpty, "random weights at 0.05 find something to compare")
        let fromNV12 = try await detector.detect(nv12, options: options)
        XCTAssertEqual(fromNV12, expected)

        let pipeline = DetectionPipeline(detector: detector, policy: .every, options: options)
        for index in 0..<2 { try pipeline.submit(Frame(pixels: nv12, presentationTime: .milliseconds(40 * index))) }
        pipeline.finish()
        var results: [[Detection]] = []
        for try await result in pipeline.results { results.append(result.detections) }
        XCTAssertEqual(results, [expected, expected])

        // Colour pixels are not converted for it (yet): a typed error, not a guess.
        do {
            _ = try await detector.detect(try photo.pixelBuffer(format: .bgra))
            XCTFail("a BGRA frame was taken by a one-channel network")
        } catch {
            XCTAssertEqual(error as? PixelBufferError, .unsupportedConversion(format: .bgra, channels: 1))
        }
    }
}
