import Darknet
import DarknetImage
import Foundation

/// Runs a detector over a list of image files and hands each result over in input order.
///
/// With `lookAhead > 0`, a second thread decodes and letterboxes the next images while the
/// current image's forward pass runs (at most `lookAhead` prepared images waiting). With
/// `jobs > 1`, that many threads each take the next image and run it whole (decode, letterbox,
/// forward pass on the detector's own threads), for throughput: on two cores, two images at
/// once on one thread each beat one image at a time on two (the forward pass does not split
/// perfectly, and the decoding has a core to share). The detections are exactly those of the
/// sequential path (`lookAhead == 0`, `jobs == 1`): decode, then
/// `Detector.detect(image, options:)`, image after image.
public struct BatchDetector: Sendable {
    /// The detector every image goes through.
    public let detector: Detector
    /// Thresholds, letterboxing and result shaping.
    public let options: DetectionOptions
    /// Images prepared ahead of the forward pass at most; 0 runs everything on the caller's
    /// thread, one step after another.
    public let lookAhead: Int
    /// Images run at once, each on its own thread (1: one at a time, with `lookAhead`).
    public let jobs: Int
    /// Decodes a file (default: `PlanarImage(contentsOf:channels:)` with the network input's
    /// channel count: colour, or for a greyscale network the grey AlexeyAB's darknet loads).
    public let load: @Sendable (String) throws -> PlanarImage

    /// A batch runner; `lookAhead` below 0 counts as 0 (sequential), `jobs` below 1 as 1.
    /// With `jobs > 1`, at most `jobs` images are decoded (in progress or finished) beyond the
    /// one `run` hands over, so a folder of large photos holds about `jobs + 1` of them in
    /// memory; `lookAhead` is not used.
    public init(detector: Detector, options: DetectionOptions, lookAhead: Int = 1, jobs: Int = 1,
                load: (@Sendable (String) throws -> PlanarImage)? = nil) {
        self.detector = detector
        self.options = options
        self.lookAhead = max(0, lookAhead)
        self.jobs = max(1, jobs)
        let channels = detector.network.inputShape.channels == 1 ? 1 : 3  // others: colour, refused by the detector
        self.load = load ?? { try PlanarImage(contentsOf: URL(fileURLWithPath: $0), channels: channels) }
    }

    /// Detects objects in every image of `paths`, calling `each` once per image in input order
    /// (on the caller's thread). A failing image is an item with an error; the others go on.
    /// - Throws: only what `each` throws (the batch then stops).
    public func run(_ paths: [String], each: (BatchItem) throws -> Void) rethrows {
        if jobs > 1 && paths.count > 1 {
            let workers = Prefetcher(count: paths.count, capacity: 1, workers: jobs) { [self] index in
                detect(paths[index])
            }
            defer { workers.finish() }
            for (index, path) in paths.enumerated() {
                try each(BatchItem(index: index, path: path, result: workers.next()))
            }
            return
        }
        // Tiles are fitted into the input one by one as they run: nothing to prepare ahead.
        if lookAhead == 0 || paths.count < 2 || options.tiling != nil {
            for (index, path) in paths.enumerated() {
                try each(BatchItem(index: index, path: path, result: detect(path)))
            }
            return
        }
        let prefetcher = Prefetcher(count: paths.count, capacity: lookAhead) { [self] index in
            Result { () throws -> PreparedImage in
                let image = try load(paths[index])
                let (input, geometry) = try detector.prepare(image, letterbox: options.letterbox)
                return PreparedImage(image: image, input: input, geometry: geometry)
            }
        }
        defer { prefetcher.finish() }
        for (index, path) in paths.enumerated() {
            let prepared = prefetcher.next()
            let result = prepared.flatMap { prepared in
                Result { () throws -> BatchDetections in
                    let start = DispatchTime.now()
                    let detections = try detector.detect(prepared: prepared.input, geometry: prepared.geometry, options: options)
                    return BatchDetections(image: prepared.image, detections: detections, seconds: Self.seconds(since: start))
                }
            }
            try each(BatchItem(index: index, path: path, result: result))
        }
    }
}

extension BatchDetector {
    /// One image whole: decoded, then `Detector.detect(image, options:)`, timed from the decoded
    /// image.
    func detect(_ path: String) -> Result<BatchDetections, any Error> {
        Result {
            let image = try load(path)
            let start = DispatchTime.now()
            let detections = try detector.detect(image, options: options)
            return BatchDetections(image: image, detections: detections, seconds: Self.seconds(since: start))
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

/// An image decoded and turned into the network input, ready for the forward pass.
struct PreparedImage: Sendable {
    let image: PlanarImage
    let input: PlanarImage
    let geometry: LetterboxGeometry
}
