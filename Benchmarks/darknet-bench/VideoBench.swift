import BenchmarkKit
import Darknet
import DarknetVideo
import Foundation

/// `--video FILE`: how fast frames come out of the decoder alone, and how fast detection
/// results come out when a `VideoFeed` feeds a `DetectionPipeline` (the `swift-darknet video`
/// arrangement), with the decode-to-result lag.
struct VideoBench {
    let options: BenchOptions
    let source: String

    struct Report {
        var source = "", policy = ""
        var width = 0, height = 0, codec = ""
        var decodedFrames = 0, decodeFPS = 0.0
        var frames = 0, processed = 0, dropped = 0
        var endToEndFPS = 0.0, forwardMedian = 0.0, lagP50 = 0.0, lagP95 = 0.0

        func jsonLine() -> String {
            String(format: #"{"video": %@, "width": %d, "height": %d, "codec": %@, "decode_frames": %d, "decode_fps": %.2f, "frames": %d, "processed": %d, "dropped": %d, "end_to_end_fps": %.2f, "forward_median_ms": %.2f, "lag_p50_ms": %.2f, "lag_p95_ms": %.2f, "policy": %@}"#,
                   Self.quoted(source), width, height, Self.quoted(codec), decodedFrames, decodeFPS, frames, processed,
                   dropped, endToEndFPS, forwardMedian, lagP50, lagP95, Self.quoted(policy))
        }

        func table() -> String {
            """
            video: \(source) (\(codec), \(width)x\(height))
            decode alone: \(decodedFrames) frames, \(String(format: "%.1f", decodeFPS)) fps
            end to end (policy \(policy)): \(frames) frames, processed \(processed), dropped \(dropped); \(String(format: "%.2f", endToEndFPS)) fps (forward median \(String(format: "%.2f", forwardMedian)) ms)
            decode-to-result lag: p50 \(String(format: "%.2f", lagP50)) ms, p95 \(String(format: "%.2f", lagP95)) ms
            """
        }

        private static func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
    }

    private var readerOptions: VideoReaderOptions {
        VideoReaderOptions(inputFormat: options.inputFormat, inputOptions: options.inputOptions)
    }

    func run() throws -> Report {
        var report = Report()
        report.source = source
        let limit = options.frames
        // 1. Decoding alone, with a reader closed before the pipeline's opens: a camera opens
        // once at a time.
        let isLive: Bool
        do {
            let reader = try VideoReader(source: source, options: readerOptions)
            report.width = reader.width
            report.height = reader.height
            report.codec = reader.codecName
            isLive = reader.kind.isLive
            let start = ContinuousClock.now
            while report.decodedFrames < limit, try reader.nextFrame() != nil { report.decodedFrames += 1 }
            report.decodeFPS = Double(report.decodedFrames) / max(1e-9, (ContinuousClock.now - start).inSeconds)
        }

        // 2. Decoding into the pipeline.
        _ = try weights()
        let spec = try options.spec()
        let network = try options.network(spec, options: try options.planOptions(spec))
        let detector = try Detector(network: network, threads: options.threads)
        let policy = options.policy ?? (isLive ? .latest : .every)
        report.policy = policy.description
        let pipeline = DetectionPipeline(detector: detector, policy: policy)
        let feed = VideoFeed(reader: try VideoReader(source: source, options: readerOptions), pipeline: pipeline,
                             options: VideoFeed.Options(frameLimit: limit))
        let results = Collected()
        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        Task {
            do {
                for try await result in pipeline.results { results.append(result) }
            } catch {
                results.fail(error)
            }
            done.signal()
        }
        feed.start()
        done.wait()
        let elapsed = (ContinuousClock.now - start).inSeconds
        let collected = try results.values()
        report.frames = feed.framesRead
        report.processed = collected.count
        report.dropped = report.frames - report.processed
        report.endToEndFPS = Double(collected.count) / max(1e-9, elapsed)
        report.forwardMedian = Stats(collected.map { $0.statistics.forwardTime.inSeconds * 1000 }).median
        let lags = collected.map { $0.statistics.captureToResult.inSeconds * 1000 }.sorted()
        report.lagP50 = Self.percentile(lags, 50)
        report.lagP95 = Self.percentile(lags, 95)
        return report
    }

    private func weights() throws -> URL {
        guard let weights = options.weights else { throw VideoBenchError.needsWeights }
        return weights
    }

    private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

enum VideoBenchError: Error, CustomStringConvertible {
    case needsWeights
    var description: String { "--video needs --weights (real detections on real frames)" }
}

/// Results collected on the consuming task, read once it is done.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [FrameResult] = []
    private var error: (any Error)?

    func append(_ result: FrameResult) { lock.withLock { results.append(result) } }
    func fail(_ error: any Error) { lock.withLock { self.error = error } }

    func values() throws -> [FrameResult] {
        try lock.withLock {
            if let error { throw error }
            return results
        }
    }
}
