/// Combines the detections of an image's passes (the whole image, then its tiles) as
/// `TileMerge` documents.
struct TileMerger {
    let imageWidth: Int
    let imageHeight: Int
    let options: TilingOptions

    /// A detection placed in the image's pixels (double precision: tile offsets and sizes keep
    /// every bit of the tile-relative box).
    private struct Placed {
        let pass: Int
        let detection: Detection
        /// Found on the whole image: unless merged, it is reported as found.
        let isWholeImage: Bool
        var left: Double, top: Double, right: Double, bottom: Double
        var objectness: Float
        var merged = false

        var area: Double { (right - left) * (bottom - top) }
    }

    /// The merged detections: those kept, in pass order and within a pass in Darknet's order.
    /// - Parameter passes: each pass's region and its detections (boxes relative to the region).
    func merge(_ passes: [(region: PixelRegion, detections: [Detection])]) -> [Detection] {
        var placed: [Placed] = []
        for (pass, (region, detections)) in passes.enumerated() {
            for d in detections {
                let x = Double(region.x) + Double(d.box.x) * Double(region.width)
                let y = Double(region.y) + Double(d.box.y) * Double(region.height)
                let w = Double(d.box.width) * Double(region.width), h = Double(d.box.height) * Double(region.height)
                let whole = region == PixelRegion(x: 0, y: 0, width: imageWidth, height: imageHeight)
                placed.append(Placed(pass: pass, detection: d, isWholeImage: whole, left: x - w / 2, top: y - h / 2, right: x + w / 2, bottom: y + h / 2,
                                     objectness: d.objectness))
            }
        }
        let order = placed.indices.sorted { a, b in
            let (ca, cb) = (placed[a].detection.confidence, placed[b].detection.confidence)
            return ca != cb ? ca > cb : a < b
        }
        var taken = [Bool](repeating: false, count: placed.count)
        for (rank, i) in order.enumerated() where !taken[i] {
            let kept = placed[i]
            for j in order[(rank + 1)...] where !taken[j] && placed[j].pass != kept.pass
                && (options.classAgnostic || placed[j].detection.classIndex == kept.detection.classIndex)
                && overlap(kept, placed[j]) >= Double(options.matchThreshold) {
                taken[j] = true
                if options.merge == .nmm {
                    placed[i].left = min(placed[i].left, placed[j].left)
                    placed[i].top = min(placed[i].top, placed[j].top)
                    placed[i].right = max(placed[i].right, placed[j].right)
                    placed[i].bottom = max(placed[i].bottom, placed[j].bottom)
                    placed[i].objectness = max(placed[i].objectness, placed[j].objectness)
                    placed[i].merged = true
                }
            }
        }
        return placed.indices.filter { !taken[$0] }.map { detection(placed[$0]) }
    }

    private func overlap(_ a: Placed, _ b: Placed) -> Double {
        let w = min(a.right, b.right) - max(a.left, b.left), h = min(a.bottom, b.bottom) - max(a.top, b.top)
        guard w > 0, h > 0 else { return 0 }
        let intersection = w * h
        switch options.matchMetric {
        case .intersectionOverUnion: return intersection / (a.area + b.area - intersection)
        case .intersectionOverSmaller: return intersection / min(a.area, b.area)
        }
    }

    /// The detection with its box relative to the whole image and Darknet's pixel rectangle.
    private func detection(_ p: Placed) -> Detection {
        if p.isWholeImage && !p.merged { return p.detection }
        let width = Double(imageWidth), height = Double(imageHeight)
        let box = RelativeBox(x: Float((p.left + p.right) / 2 / width), y: Float((p.top + p.bottom) / 2 / height),
                              width: Float((p.right - p.left) / width), height: Float((p.bottom - p.top) / height))
        let d = p.detection
        return Detection(classIndex: d.classIndex, label: d.label, confidence: d.confidence, objectness: p.objectness, box: box,
                         rect: box.pixelRect(imageWidth: imageWidth, imageHeight: imageHeight),
                         uncertainty: p.merged ? nil : d.uncertainty)
    }
}
