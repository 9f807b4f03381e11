import Darknet
import Foundation

/// Per-frame timings of a `video` or `classify-video` run and the closing summary.
struct VideoStatistics {
    private(set) var latencies: [Double] = []
    private let start = DispatchTime.now().uptimeNanoseconds

    private(set) var forwards: [Double] = []

    /// Records one processed frame: its latency (decoded to result) and forward time.
    mutating func record(_ frame: FrameStatistics) {
        record(latency: frame.captureToResult, forward: frame.forwardTime)
    }

    /// Records one processed frame: decoded to result, and the network's part of it.
    mutating func record(latency: Duration, forward: Duration) {
        latencies.append(latency.inSeconds)
        forwards.append(forward.inSeconds)
    }

    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    var processed: Int { latencies.count }
    var fps: Double { elapsed > 0 ? Double(processed) / elapsed : 0 }

    /// The `p`-th percentile (0...1) of `values`, nearest rank.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Frames decoded but neither processed nor skipped by the stride were dropped by the
    /// latest policy (or left in the pipeline by a stop).
    func summary(read: Int, skipped: Int) -> String {
        let dropped = max(0, read - skipped - processed)
        var text = String(format: "frames read %d, processed %d, dropped %d", read, processed, dropped)
        if skipped > 0 { text += String(format: ", skipped by --stride %d", skipped) }
        text += String(format: "; processed %.2f fps; latency p50 %.1f ms, p95 %.1f ms; forward p50 %.1f ms",
                       fps, 1000 * Self.percentile(latencies, 0.5), 1000 * Self.percentile(latencies, 0.95),
                       1000 * Self.percentile(forwards, 0.5))
        return text
    }

    /// "frames 120/150, 3.2 fps, ETA 9 s" (total unknown: no ETA).
    func progress(read: Int, total: Int?) -> String {
        let rate = elapsed > 0 ? Double(read) / elapsed : 0
        guard let total, total > 0 else { return String(format: "frames %d, %.1f fps", read, rate) }
        let eta = rate > 0 ? Double(max(0, total - read)) / rate : 0
        return String(format: "frames %d/%d, %.1f fps, ETA %.0f s", read, total, rate, eta)
    }
}
