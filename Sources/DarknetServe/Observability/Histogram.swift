/// A Prometheus histogram of durations in seconds: cumulative counts per upper bound, sum and
/// count.
struct Histogram: Sendable {
    /// Upper bounds in seconds (then `+Inf`): 5 ms to 10 s, about 2.5x apart.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Observations at or below each bound (not cumulative; summed when written).
    private(set) var counts = [Int](repeating: 0, count: Histogram.bounds.count + 1)
    private(set) var sum = 0.0
    private(set) var count = 0

    mutating func observe(_ seconds: Double) {
        let index = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        counts[index] += 1
        sum += seconds
        count += 1
    }

    /// The `_bucket`, `_sum` and `_count` lines of `name` with `labels` (`key="value"` pairs,
    /// already escaped, comma-separated; may be empty).
    func lines(name: String, labels: String) -> [String] {
        let prefix = labels.isEmpty ? "" : labels + ","
        var lines: [String] = []
        var cumulative = 0
        for (i, bound) in (Self.bounds.map { formatNumber($0) } + ["+Inf"]).enumerated() {
            cumulative += counts[i]
            lines.append("\(name)_bucket{\(prefix)le=\"\(bound)\"} \(cumulative)")
        }
        let braces = labels.isEmpty ? "" : "{\(labels)}"
        lines.append("\(name)_sum\(braces) \(formatNumber(sum))")
        lines.append("\(name)_count\(braces) \(count)")
        return lines
    }
}

/// A number as Prometheus' text format writes it (shortest form; integers without ".0").
func formatNumber(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

extension Histogram {
    /// The `q` quantile (0...1) estimated from the buckets as Prometheus' `histogram_quantile`
    /// does: linear within the bucket holding it; the largest finite bound when it lies in
    /// `+Inf`. Nil with no observations.
    func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = q * Double(count)
        var below = 0
        for (index, inBucket) in counts.enumerated() {
            guard Double(below + inBucket) >= rank, inBucket > 0 else { below += inBucket; continue }
            guard index < Self.bounds.count else { return Self.bounds.last }
            let lower = index == 0 ? 0 : Self.bounds[index - 1], upper = Self.bounds[index]
            return lower + (upper - lower) * (rank - Double(below)) / Double(inBucket)
        }
        return Self.bounds.last
    }
}
