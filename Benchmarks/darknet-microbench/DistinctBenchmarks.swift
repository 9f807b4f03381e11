/// A suite's benchmarks, one set per distinct key (a layer's shape): a layer whose key was
/// seen before counts once more in each benchmark added under it (the table's `(xN)`) instead of
/// adding rows.
struct DistinctBenchmarks {
    private(set) var benchmarks: [MicroBenchmark] = []
    private var added: [String: [Int]] = [:]

    /// Whether `key` is new; if it is not, the benchmarks added under it count once more.
    mutating func isNew(_ key: String) -> Bool {
        guard let indices = added[key] else {
            added[key] = []
            return true
        }
        for index in indices { benchmarks[index].count += 1 }
        return false
    }

    mutating func append(key: String, _ benchmark: MicroBenchmark) {
        added[key, default: []].append(benchmarks.count)
        benchmarks.append(benchmark)
    }
}
