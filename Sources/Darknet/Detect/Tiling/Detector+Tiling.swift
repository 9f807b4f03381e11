import Foundation


/// Detection on tiles (`DetectionOptions.tiling`): each region of `TileLayout` is cropped,
/// fitted into the network input as `detect` fits a whole image, run and decoded (Darknet's NMS
/// within the region), then the regions' detections are merged (`TileMerge`). With several
/// `threads`, that many regions run at once, each on a single-threaded session of its own.
extension Detector {
    func detect(_ image: PlanarImage, options: DetectionOptions, tiling: TilingOptions) throws -> [Detection] {
        try detectTiles(width: image.width, height: image.height, options: options, tiling: tiling,
                        whole: { try self.detect(image, options: $0) }) { region, pass, pooled in
            let (input, geometry) = try self.prepare(image.cropped(to: region), letterbox: options.letterbox)
            return try self.detect(input: input.pixels, geometry: geometry, in: pooled, options: pass)
        }
    }

    func detect(_ pixels: PixelBuffer, options: DetectionOptions, tiling: TilingOptions) throws -> [Detection] {
        try detectTiles(width: pixels.width, height: pixels.height, options: options, tiling: tiling,
                        whole: { try self.detect(pixels, options: $0) }) { region, pass, pooled in
            let geometry = try self.prepareInput(try pixels.cropped(to: region), letterbox: options.letterbox, into: pooled.input)
            return try self.detect(input: pooled.input, geometry: geometry, in: pooled, options: pass)
        }
    }

    /// The regions of a `width x height` image, each run by `run` (with the options of one pass:
    /// no tiling, no shaping), merged and shaped; a single region is `whole` (plain `detect`).
    private func detectTiles(width: Int, height: Int, options: DetectionOptions, tiling: TilingOptions,
                             whole: (DetectionOptions) throws -> [Detection],
                             run: @escaping @Sendable (PixelRegion, DetectionOptions, PooledSession) throws -> [Detection]) throws -> [Detection] {
        var untiled = options
        untiled.tiling = nil
        let shape = network.inputShape
        let regions = TileLayout.regions(imageWidth: width, imageHeight: height, networkWidth: shape.width,
                                         networkHeight: shape.height, options: tiling)
        guard regions.count > 1 else { return try whole(untiled) }
        var unshaped = untiled
        unshaped.classes = nil
        unshaped.maximumDetections = nil
        unshaped.order = .darknet
        let pass = unshaped
        let found = try runSideBySide(regions.count) { index, pooled in try run(regions[index], pass, pooled) }
        let merged = TileMerger(imageWidth: width, imageHeight: height, options: tiling).merge(Array(zip(regions, found)))
        return untiled.shape(merged)
    }

    /// `work(index, session)` for every index in `0..<count`: on `threads` threads at once with
    /// the tile sessions, else one after another on one session. The first error is thrown
    /// once all threads have stopped taking work.
    private func runSideBySide<R: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int, PooledSession) throws -> R) throws -> [R] {
        guard let tileSessions, count > 1 else {
            return try runner.run { pooled in try (0..<count).map { try work($0, pooled) } }
        }
        let results = SideBySideResults<R>(count: count)
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
            let pooled = tileSessions.take()
            defer { tileSessions.give(pooled) }
            while let index = results.claim() {
                do { results.store(try work(index, pooled), at: index) } catch { results.fail(error) }
            }
        }
        return try results.collected()
    }

    /// Runs `work` on a global queue, so that an `async` caller never blocks Swift's
    /// cooperative threads while the tiles run.
    func offThePool<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// The results of work shared out by index among threads, and the first failure.
private final class SideBySideResults<R: Sendable>: @unchecked Sendable {
    // Invariant: every field is read and written under `lock`.
    private let lock = NSLock()
    private var results: [R?]
    private var next = 0
    private var failure: (any Error)?

    init(count: Int) { results = Array(repeating: nil, count: count) }

    /// The next index to work on; nil when all are taken or one failed.
    func claim() -> Int? {
        lock.withLock {
            guard failure == nil, next < results.count else { return nil }
            next += 1
            return next - 1
        }
    }

    func store(_ result: R, at index: Int) { lock.withLock { results[index] = result } }

    func fail(_ error: any Error) { lock.withLock { if failure == nil { failure = error } } }

    func collected() throws -> [R] {
        try lock.withLock {
            if let failure { throw failure }
            return results.map { $0! }
        }
    }
}
