import Darknet

/// COCO's box mAP@[.5:.95] as pycocotools' `COCOeval` computes it (`iouType='bbox'`, area
/// range "all", 100 detections per image and class), kept incrementally: each image's
/// detections are matched when the image is added, so only a score and ten match bits per
/// detection are held.
///
/// Per image and class: detections by score (stable), the first 100; boxes in pixels as
/// `[x, y, w, h]` of the image (unclamped); IoU as `maskApi`'s `bbIou`; at each threshold
/// `0.50, 0.55, ..., 0.95` a detection takes the unmatched truth of highest IoU `>=` the
/// threshold (the later truth on a tie). Per class over all images: detections by score
/// (stable, images in order), precision made non-increasing from the right, then read at the
/// 101 recalls `0, 0.01, ..., 1` (the first rank reaching each; 0 past the last). A class's AP
/// is the mean over thresholds and recalls; classes without truths are left out of the mean.
struct COCOAveragePrecision {
    /// numpy's `linspace(.5, 0.95, 10)`, as `COCOeval.Params` makes it.
    static let iouThresholds: [Double] = linspace(0.5, 0.95, count: 10)
    /// numpy's `linspace(.0, 1.00, 101)`.
    static let recallThresholds: [Double] = linspace(0, 1, count: 101)
    static let maximumDetections = 100

    private struct Scored {
        let score: Double
        /// Bit `t` set: matched at `iouThresholds[t]`.
        let matches: UInt16
    }

    private var scored: [[Scored]]
    private var truths: [Int]

    init(classes: Int) {
        scored = Array(repeating: [], count: classes)
        truths = Array(repeating: 0, count: classes)
    }

    /// Matches one image's detections (Darknet's order) with its truths.
    mutating func add(_ detections: [Detection], truths imageTruths: [GroundTruthBox], imageWidth: Int, imageHeight: Int) {
        let size = (width: Double(imageWidth), height: Double(imageHeight))
        var byClass: [Int: [Detection]] = [:]
        for d in detections { byClass[d.classIndex, default: []].append(d) }
        var truthsByClass: [Int: [PixelBox]] = [:]
        for t in imageTruths {
            truthsByClass[t.classIndex, default: []].append(PixelBox(t.box, size))
            self.truths[t.classIndex] += 1
        }
        for (classIndex, classDetections) in byClass {
            let ranked = classDetections.enumerated().sorted { a, b in
                a.element.confidence != b.element.confidence ? a.element.confidence > b.element.confidence : a.offset < b.offset
            }.prefix(Self.maximumDetections).map(\.element)
            let gts = truthsByClass[classIndex] ?? []
            let ious = ranked.map { d in gts.map { PixelBox(d.box, size).intersectionOverUnion($0) } }
            var masks = [UInt16](repeating: 0, count: ranked.count)
            for (t, threshold) in Self.iouThresholds.enumerated() {
                var taken = [Bool](repeating: false, count: gts.count)
                for d in ranked.indices {
                    var best = min(threshold, 1 - 1e-10), match = -1
                    for g in gts.indices where !taken[g] && ious[d][g] >= best {
                        best = ious[d][g]
                        match = g
                    }
                    if match >= 0 {
                        taken[match] = true
                        masks[d] |= 1 << t
                    }
                }
            }
            for (d, mask) in zip(ranked, masks) { scored[classIndex].append(Scored(score: Double(d.confidence), matches: mask)) }
        }
    }

    /// Each class's AP (nil without truths) and their mean (nil if no class has truths).
    func averagePrecisions() -> (perClass: [Double?], mean: Double?) {
        var perClass: [Double?] = []
        for (classIndex, records) in scored.enumerated() {
            let count = truths[classIndex]
            guard count > 0 else {
                perClass.append(nil)
                continue
            }
            let ranked = records.enumerated().sorted { a, b in
                a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
            }.map(\.element)
            var sum = 0.0
            for t in Self.iouThresholds.indices {
                sum += Self.interpolatedPrecisionSum(ranked.map { $0.matches & (1 << t) != 0 }, truths: count)
            }
            perClass.append(sum / Double(Self.iouThresholds.count * Self.recallThresholds.count))
        }
        let present = perClass.compactMap { $0 }
        return (perClass, present.isEmpty ? nil : present.reduce(0, +) / Double(present.count))
    }

    /// The sum over the 101 recall thresholds of the interpolated precision (`accumulate`).
    private static func interpolatedPrecisionSum(_ matched: [Bool], truths: Int) -> Double {
        var precision: [Double] = [], recall: [Double] = []
        var tp = 0.0, fp = 0.0
        for hit in matched {
            if hit { tp += 1 } else { fp += 1 }
            recall.append(tp / Double(truths))
            precision.append(tp / (fp + tp + Double.ulpOfOne))
        }
        for i in stride(from: precision.count - 1, to: 0, by: -1) where precision[i] > precision[i - 1] {
            precision[i - 1] = precision[i]
        }
        var sum = 0.0, rank = 0
        for level in recallThresholds {
            while rank < recall.count && recall[rank] < level { rank += 1 }
            guard rank < recall.count else { break }
            sum += precision[rank]
        }
        return sum
    }

    /// `start + i * step` with the last value exactly `stop`, as numpy's `linspace`.
    private static func linspace(_ start: Double, _ stop: Double, count: Int) -> [Double] {
        let step = (stop - start) / Double(count - 1)
        return (0..<count).map { $0 == count - 1 ? stop : Double($0) * step + start }
    }
}

/// A box in image pixels as COCO stores it: left, top, width, height.
struct PixelBox {
    let x: Double, y: Double, width: Double, height: Double

    init(_ box: RelativeBox, _ size: (width: Double, height: Double)) {
        x = (Double(box.x) - Double(box.width) / 2) * size.width
        y = (Double(box.y) - Double(box.height) / 2) * size.height
        width = Double(box.width) * size.width
        height = Double(box.height) * size.height
    }

    /// `maskApi`'s `bbIou` for a non-crowd truth.
    func intersectionOverUnion(_ truth: PixelBox) -> Double {
        let w = min(width + x, truth.width + truth.x) - max(x, truth.x)
        if w <= 0 { return 0 }
        let h = min(height + y, truth.height + truth.y) - max(y, truth.y)
        if h <= 0 { return 0 }
        let intersection = w * h
        return intersection / (width * height + truth.width * truth.height - intersection)
    }
}
