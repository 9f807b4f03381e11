@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `Classifier` against Debian's own `darknet classifier predict` (the binary, not the library),
/// random weights, recorded by `Tools/make-fixtures-zoo.sh`.
final class ClassifierTests: XCTestCase {
    func testDarknetClassifierMatchesDarknetClassifierPredict() throws {
        for image in ["dog", "eagle"] { try compare(network: "darknet", image: image) }
    }

    func testTinyClassifierMatchesDarknetClassifierPredict() throws {
        for image in ["dog", "eagle"] { try compare(network: "tiny", image: image) }
    }

    private func compare(network name: String, image: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let zoo = ZooFidelityTests.zoo
        let classifier = try Classifier(cfg: try TestPaths.require(zoo.appendingPathComponent("cfg/\(name).cfg")),
                                        weights: try TestPaths.require(zoo.appendingPathComponent("weights/\(name).weights")),
                                        names: try TestPaths.require(TestPaths.sample("imagenet.shortnames.list")))
        let printed = try String(contentsOf: try TestPaths.require(zoo.appendingPathComponent("classify/\(name)-\(image).txt")),
                                 encoding: .utf8)
        // "%5.2f%%: %s" per line, as predict_classifier prints.
        let expected = printed.split(separator: "\n").map { line -> (percent: Float, label: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (Float(parts[0].trimmingCharacters(in: .whitespaces).dropLast())!, String(parts[1].dropFirst()))
        }
        XCTAssertEqual(expected.count, 5, "darknet printed the top 5", file: file, line: line)
        let photo = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("\(image).jpg")))
        let predictions = try classifier.classify(photo, top: 5)
        XCTAssertEqual(predictions.map(\.label), expected.map(\.label), "\(name) \(image)", file: file, line: line)
        for (mine, theirs) in zip(predictions, expected) {
            // Darknet prints two decimals of a percentage: within half a unit of the last digit.
            XCTAssertEqual(mine.probability * 100, theirs.percent, accuracy: 0.005 + 1e-4, "\(name) \(image) \(mine.label)",
                           file: file, line: line)
        }
        XCTAssertGreaterThan(predictions[0].probability, predictions[4].probability, "a real ranking", file: file, line: line)
    }

    /// Frames (8-bit pixels in any RGB-family layout) classify exactly as the decoded image does,
    /// and a region as its crop.
    func testFramesGiveTheImagePathsClassification() throws {
        let classifier = try darknetClassifier()
        let top3 = ClassificationOptions(top: 3)
        for name in ["dog", "eagle"] {
            let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("\(name).jpg")))
            let expected = try classifier.classify(image, options: top3)
            XCTAssertEqual(expected.count, 3)
            for format in [PixelFormat.bgra, .rgb, .argb, .bgr, .rgba] {
                let frame = try image.pixelBuffer(format: format)
                XCTAssertEqual(try classifier.classify(frame, options: top3), expected, "\(name) \(format)")
            }
            let frame = try image.pixelBuffer(format: .bgra)
            let region = PixelRegion(x: 40, y: 30, width: image.width / 2, height: image.height / 2)
            let crop = PlanarImage(pixels: try frame.cropped(to: region))
            let inRegion = try classifier.classify(frame, region: region, options: top3)
            XCTAssertEqual(inRegion, try classifier.classify(crop, options: top3), "\(name) region")
            XCTAssertNotEqual(inRegion.map(\.probability), expected.map(\.probability), "\(name): the region is another input")
        }
        let frame = try PlanarImage(contentsOf: TestPaths.sample("dog.jpg")).pixelBuffer(format: .bgra)
        XCTAssertThrowsError(try classifier.classify(frame, options: ClassificationOptions(top: -1))) { error in
            XCTAssertTrue(error is ArgumentError, "\(error)")
        }
        XCTAssertThrowsError(try classifier.classify(frame, region: PixelRegion(x: 700, y: 0, width: 100, height: 100))) { error in
            XCTAssertTrue(error is PixelBufferError, "\(error)")
        }
    }

    /// A frame classified from a task gives what the blocking call gives.
    func testAsyncFrameClassificationEqualsTheBlockingCall() async throws {
        let classifier = try darknetClassifier()
        let frame = try PlanarImage(contentsOf: TestPaths.sample("eagle.jpg")).pixelBuffer(format: .rgb)
        let blocking = try classify(frame, with: classifier)
        let fromTask = try await classifier.classify(frame, options: ClassificationOptions(top: 4))
        XCTAssertEqual(fromTask, blocking)
        XCTAssertEqual(blocking.count, 4)
    }

    private func classify(_ frame: PixelBuffer, with classifier: Classifier) throws -> [Classification] {
        try classifier.classify(frame, options: ClassificationOptions(top: 4))
    }

    private func darknetClassifier() throws -> Classifier {
        let zoo = ZooFidelityTests.zoo
        return try Classifier(cfg: try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")),
                              weights: try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")),
                              names: try TestPaths.require(TestPaths.sample("imagenet.shortnames.list")))
    }

    /// The README's classifier example, run on the random-weights `darknet.cfg`.
    func testReadmeClassifierExample() async throws {
        let zoo = ZooFidelityTests.zoo
        let cfgURL = try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg"))
        let weightsURL = try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights"))
        let imagenetNamesURL = try TestPaths.require(TestPaths.sample("imagenet.shortnames.list"))
        let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // begin README.md 2
        let classifier = try Classifier(cfg: cfgURL, weights: weightsURL, names: imagenetNamesURL)
        for c in try await classifier.classify(image, top: 5) { print(c.label, c.probability) }
        // end README.md 2

        XCTAssertEqual(printed.count, 5)
        // The same answer again from the pooled session, and from several threads at once.
        let first = try await classifier.classify(image, top: 5)
        let results = Locked([Result<[Classification], any Error>?](repeating: nil, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { job in
            let result = Result { try classifier.classify(image, top: 5) }
            results.withLock { $0[job] = result }
        }
        for job in 0..<4 { XCTAssertEqual(try results.value[job]?.get(), first) }
    }

    func testTopKOrdersLikeDarknetTopK() {
        let values: [Float] = [0.1, 0.5, 0.3, 0.5, 0.05, 0.3]
        values.withUnsafeBufferPointer { buffer in
            XCTAssertEqual(Classifier.topK(buffer, count: 4), [1, 3, 2, 5])   // ties: lower index first
            XCTAssertEqual(Classifier.topK(buffer, count: 10), [1, 3, 2, 5, 0, 4])
            XCTAssertEqual(Classifier.topK(buffer, count: 0), [])
        }
    }

    func testTooFewLabelsAndCostOnlyNetworksAreRefused() throws {
        let spec = try NetworkSpec.parse(text: "[net]\nwidth=2\nheight=2\nchannels=3\n[avgpool]\n[softmax]\n[cost]\n", file: "c.cfg")
        let network = try Network(spec: spec, randomSeed: 1)
        XCTAssertThrowsError(try Classifier(network: network, labels: ["a", "b"], labelsFile: "two.names")) { error in
            XCTAssertEqual(error as? ClassifierError, .tooFewLabels(file: "two.names", labels: 2, outputs: 3))
        }
        let classifier = try Classifier(network: network)
        XCTAssertEqual(classifier.outputLayer, 1, "the last layer that is not [cost]")
        let costOnly = try NetworkSpec.parse(text: "[net]\nwidth=2\nheight=2\nchannels=3\n[cost]\n", file: "c.cfg")
        XCTAssertThrowsError(try Classifier(network: try Network(spec: costOnly, randomSeed: 1))) { error in
            XCTAssertEqual(error as? ClassifierError, .noOutputLayer(cfg: "c.cfg"))
        }
    }
}
