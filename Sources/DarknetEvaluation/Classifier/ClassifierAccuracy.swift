import Foundation

/// What `darknet classifier valid` reports: over the images scored so far, the fraction whose
/// most probable class is the image's class (top 1) and the fraction with it among the `k` most
/// probable (top k). Darknet's running sums are float32, and so are the fractions here.
/// `Codable` with the keys `swift-darknet classify-valid --json` writes.
public struct ClassifierAccuracy: Sendable, Equatable, Codable {
    /// Images scored.
    public private(set) var images: Int
    /// How many of the most probable classes count for `topKHits`.
    public private(set) var k: Int
    /// Images whose most probable class is their class.
    public private(set) var top1Hits: Int
    /// Images with their class among the `k` most probable.
    public private(set) var topKHits: Int
    /// Images whose path contains no label: scored as misses, as Darknet scores them.
    public private(set) var unlabelled: Int
    /// Top-1 accuracy (`top1Hits / images` in float32, as Darknet divides), 0 before any image.
    public private(set) var top1: Float = 0
    /// Top-k accuracy, 0 before any image.
    public private(set) var topK: Float = 0

    /// An empty tally for the top `k`.
    public init(k: Int) {
        self.k = k
        images = 0
        top1Hits = 0
        topKHits = 0
        unlabelled = 0
    }

    /// Darknet's running line after the last image: `6: top 1: 0.571429, top 5: 0.714286`.
    public var darknetLine: String {
        String(format: "%d: top 1: %f, top %d: %f", images - 1, Double(top1), k, Double(topK))
    }

    /// Counts one image of class `truth` (nil: its path contains no label) whose classes,
    /// most probable first, are `ranked`. As in Darknet, the top `k` places past the last ranked
    /// class (when there are fewer than `k` classes) hold -1, the class of an unlabelled image,
    /// and each place equal to the image's class counts.
    public mutating func record(truth: Int?, ranked: [Int]) {
        images += 1
        let truthIndex = truth ?? -1
        if truth == nil { unlabelled += 1 }
        let places = Array(ranked.prefix(k)) + Array(repeating: -1, count: max(0, k - ranked.count))
        if places.first == truthIndex { top1Hits += 1 }
        topKHits += places.filter { $0 == truthIndex }.count
        top1 = Float(top1Hits) / Float(images)
        topK = Float(topKHits) / Float(images)
    }

    enum CodingKeys: String, CodingKey {
        case images, k = "top", top1Hits = "top1_hits", topKHits = "topk_hits", unlabelled, top1, topK = "topk"
    }
}
