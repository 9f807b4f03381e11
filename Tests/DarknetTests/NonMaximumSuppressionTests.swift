@testable import Darknet
import XCTest

/// The optimised NMS against a literal transcription of Darknet's `do_nms_sort` (full stable
/// sort of every box for every class), on random boxes with ties and zero probabilities.
final class NonMaximumSuppressionTests: XCTestCase {
    private func literalDoNmsSort(_ input: [BoxCandidate], classes: Int, threshold: Float) -> [BoxCandidate] {
        var candidates = input
        var last = candidates.count - 1
        var i = 0
        while i <= last {
            if candidates[i].objectness == 0 { candidates.swapAt(i, last); last -= 1 } else { i += 1 }
        }
        candidates.removeLast(candidates.count - (last + 1))
        for k in 0..<classes {
            candidates = candidates.enumerated().sorted { a, b in
                a.element.probabilities[k] != b.element.probabilities[k]
                    ? a.element.probabilities[k] > b.element.probabilities[k] : a.offset < b.offset
            }.map(\.element)
            for i in candidates.indices where candidates[i].probabilities[k] != 0 {
                for j in (i + 1)..<candidates.count where candidates[i].box.intersectionOverUnion(candidates[j].box) > threshold {
                    candidates[j].probabilities[k] = 0
                }
            }
        }
        return candidates
    }

    func testMatchesDarknetsAlgorithmOnRandomBoxes() {
        var generator = SplitMix64(seed: 2024)
        for round in 0..<40 {
            let classes = 1 + round % 7
            let count = round * 5
            let levels: [Float] = [0, 0, 0.3, 0.6, 0.6, 0.9]  // ties and zeros on purpose
            let candidates = (0..<count).map { _ -> BoxCandidate in
                let box = RelativeBox(x: generator.nextFloat(in: 0...1), y: generator.nextFloat(in: 0...1),
                                      width: generator.nextFloat(in: 0.05...0.5), height: generator.nextFloat(in: 0.05...0.5))
                let objectness = levels[Int(generator.next() % 6)]
                let probabilities = (0..<classes).map { _ in levels[Int(generator.next() % 6)] }
                return BoxCandidate(box: box, objectness: objectness, probabilities: probabilities)
            }
            var fast = candidates
            NonMaximumSuppression.apply(&fast, classes: classes, threshold: 0.3)
            XCTAssertEqual(fast, literalDoNmsSort(candidates, classes: classes, threshold: 0.3), "round \(round)")
        }
    }
}
