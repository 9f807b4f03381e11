import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// The `Codable` results round-trip through JSON unchanged, under the command line's field
/// names (`ResultJSONTests` compares them with the command's own output); tracked detections
/// are `Identifiable` by their track; results print readably.
final class ResultCodingTests: XCTestCase {
    func roundTrip<T: Codable & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any]? {
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(T.self, from: data), value, file: file, line: line)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    func testDetectionsOfARealImageRoundTrip() throws {
        let detector = try Detector(cfg: TestPaths.darknetCfg.appendingPathComponent("yolov3-tiny.cfg"),
                                    weights: try TestPaths.require(TestPaths.tinyWeights),
                                    names: TestPaths.sample("coco.names"))
        let detections = try detector.detect(try PlanarImage(contentsOf: TestPaths.sample("dog.jpg")),
                                             options: DetectionOptions(threshold: 0.25))
        XCTAssertGreaterThan(detections.count, 2)
        for detection in detections {
            let object = try XCTUnwrap(try roundTrip(detection))
            XCTAssertEqual(Set(object.keys), ["class", "label", "prob", "x", "y", "w", "h", "objectness", "box"])
            XCTAssertEqual(object["x"] as? Int, detection.rect.left)
            XCTAssertEqual(object["w"] as? Int, detection.rect.width)
            XCTAssertEqual((object["prob"] as? Double).map(Float.init), detection.confidence, "the shortest text that reads back")
        }
        XCTAssertEqual(try JSONDecoder().decode([Detection].self, from: try JSONEncoder().encode(detections)), detections)
    }

    func testGaussianUncertaintyAndClassificationsRoundTrip() throws {
        let detection = Detection(classIndex: 3, label: "a \"quoted\" label", confidence: 0.123456789, objectness: 0.9,
                                  box: RelativeBox(x: 0.5, y: 0.25, width: 0.1, height: 1e-7),
                                  rect: PixelRect(left: -2, top: 0, right: 17, bottom: 3),
                                  uncertainty: BoxUncertainty(x: 0.01, y: 0.02, width: 0.03, height: 0.04))
        let object = try XCTUnwrap(try roundTrip(detection))
        XCTAssertEqual((object["uncertainty"] as? [String: Any])?.keys.sorted(), ["h", "w", "x", "y"])
        let classification = Classification(classIndex: 208, label: "Labrador retriever", probability: 0.412345)
        XCTAssertEqual(try roundTrip(classification)?.keys.sorted(), ["class", "label", "prob"])
        XCTAssertEqual(try roundTrip(PixelRect(left: 129, top: 186, right: 369, bottom: 517)).map { $0["w"] as? Int }, 240)
    }

    func testTrackedResultsRoundTripAndAreIdentifiedByTheirTrack() throws {
        var tracker = ObjectTracker(options: TrackerOptions(smoothing: .movingAverage(frames: 3)))
        var results: [FrameResult] = []
        for frame in 0..<4 {
            let detections = [Self.detection(x: 0.3 + 0.02 * Float(frame), classIndex: 16),
                              Self.detection(x: 0.7, classIndex: 2)]
            let tracks = tracker.update(detections, frameIndex: frame, imageWidth: 640, imageHeight: 480)
            XCTAssertEqual(tracks.map(\.id), tracks.map(\.trackID))
            XCTAssertEqual(tracks.map(\.id), [1, 2])
            results.append(FrameResult(index: frame, presentationTime: .milliseconds(40 * frame), detections: detections,
                                       tracks: tracks, statistics: Self.statistics))
        }
        for result in results {
            let object = try XCTUnwrap(try roundTrip(result))
            XCTAssertEqual(Set(object.keys), ["frame", "time", "detections", "statistics"])
            let first = try XCTUnwrap((object["detections"] as? [[String: Any]])?.first)
            XCTAssertEqual(first["track"] as? Int, 1, "tracked detections are printed as the command prints them")
            XCTAssertEqual(first["x"] as? Int, result.tracks[0].rect.left, "the track's (smoothed) box")
        }
        let untracked = FrameResult(index: 7, presentationTime: .nanoseconds(1_033_333_333), detections: results[0].detections,
                                    statistics: Self.statistics)
        XCTAssertNil((try roundTrip(untracked)?["detections"] as? [[String: Any]])?.first?["track"])
        let mismatched = FrameResult(index: 8, presentationTime: .zero, detections: [], tracks: results[1].tracks,
                                     statistics: Self.statistics)
        XCTAssertNotNil(try roundTrip(mismatched)?["tracks"], "tracks that are not the detections' are kept apart")
    }

    func testResultsPrintReadably() {
        let detection = Self.detection(x: 0.5, classIndex: 16)
        XCTAssertEqual("\(detection)", "dog: 56% (x 240 y 150 w 160 h 180)")
        XCTAssertEqual("\(Classification(classIndex: 208, label: "Labrador retriever", probability: 0.412345))",
                       "Labrador retriever: 41.23%")
        var tracker = ObjectTracker()
        let tracks = tracker.update([detection], frameIndex: 0, imageWidth: 640, imageHeight: 480)
        XCTAssertEqual(tracks.map(\.description), ["#1 dog: 56% (x 240 y 150 w 160 h 180)"])
        XCTAssertEqual(FramePolicy.latest.strided(3).description, "latest, stride 3")
    }

    /// A detection of a 0.25 x 0.375 box centred at (`x`, 0.5) in a 640 x 480 image.
    static func detection(x: Float, classIndex: Int) -> Detection {
        let box = RelativeBox(x: x, y: 0.5, width: 0.25, height: 0.375)
        return Detection(classIndex: classIndex, label: classIndex == 16 ? "dog" : "car", confidence: 0.5639, objectness: 0.8,
                         box: box, rect: box.pixelRect(imageWidth: 640, imageHeight: 480))
    }

    static let statistics = FrameStatistics(captureToResult: .nanoseconds(41_234_567), preprocessTime: .microseconds(1500),
                                            forwardTime: .milliseconds(33), postprocessTime: .nanoseconds(250_001),
                                            received: 12, processed: 10, dropped: 2, processedFPS: 24.5, inputFPS: 30)
}
