import DarknetEvaluation
import XCTest

/// `classify-valid`'s running tally, with Darknet's arithmetic (an unlabelled image is class -1).
final class ClassifierAccuracyTests: XCTestCase {
    /// Darknet's tally: the top-k places past the last class hold -1, which an unlabelled image
    /// matches once per place; its fractions are float32 and its line prints them with %f.
    func testTallyKeepsDarknetsArithmetic() {
        var tally = ClassifierAccuracy(k: 5)
        tally.record(truth: 1, ranked: [1, 0])
        XCTAssertEqual([tally.top1Hits, tally.topKHits], [1, 1])
        tally.record(truth: nil, ranked: [1, 0])
        XCTAssertEqual([tally.top1Hits, tally.topKHits, tally.unlabelled], [1, 4, 1], "three places of -1 match class -1")
        tally.record(truth: 0, ranked: [1, 0])
        XCTAssertEqual([tally.top1Hits, tally.topKHits], [1, 5])
        XCTAssertEqual(tally.darknetLine, "2: top 1: 0.333333, top 5: 1.666667")
        XCTAssertEqual(tally.top1, Float(1) / Float(3))
    }
}
