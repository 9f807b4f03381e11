import CommandLineKit
import Darknet
import Foundation

/// Table and JSON-line output.
struct Report {
    let options: MicroOptions
    let loadAverage: String

    /// Column widths for the names and shapes of `benchmarks` (rows stream out as they are measured).
    let nameWidth: Int
    let shapeWidth: Int

    init(options: MicroOptions, loadAverage: String, benchmarks: [MicroBenchmark]) {
        self.options = options
        self.loadAverage = loadAverage
        nameWidth = max((benchmarks.map(\.name.count).max() ?? 0) + 2, "conv im2col+sgemm total".count + 2)
        shapeWidth = max(benchmarks.map { Self.shapeText($0).count }.max() ?? 0, "sum of medians over 999 layers".count)
    }

    var header: String {
        line("benchmark", "shape", "runs", "inner", "min ms", "median ms", "max ms", "GFLOPS", "GB/s", "cpu/wall")
    }

    func row(_ m: Measurement) -> String {
        line(m.benchmark.name + (m.benchmark.planned ? " *" : ""), Self.shapeText(m.benchmark), "\(m.runs)", "\(m.inner)",
             Self.milliseconds(m.wall.min), Self.milliseconds(m.wall.median), Self.milliseconds(m.wall.max),
             Self.rate(m.gflops), Self.rate(m.gigabytesPerSecond),
             m.wall.median > 0 ? String(format: "%.2f", m.cpu.median / m.wall.median) : "-")
    }

    private static func shapeText(_ benchmark: MicroBenchmark) -> String {
        benchmark.shape + (benchmark.count > 1 ? " (x\(benchmark.count))" : "")
    }

    /// Name and shape left-aligned, numbers right-aligned.
    private func line(_ name: String, _ shape: String, _ numbers: String...) -> String {
        let widths = [5, 5, 10, 10, 10, 8, 8, 8]
        let padded = zip(numbers, widths).map { String(repeating: " ", count: max($1 - $0.count, 0)) + $0 }
        return ([Self.pad(name, nameWidth), Self.pad(shape, shapeWidth)] + padded).joined(separator: " ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(width - text.count, 0))
    }

    /// A summary row: the sum of medians over every layer a group covers (each distinct shape
    /// counted as often as it occurs in the network).
    func totalRow(_ name: String, _ group: [Measurement]) -> String? {
        guard !group.isEmpty else { return nil }
        let (ms, flops) = Self.total(group)
        return line(name, "sum of medians over \(group.reduce(0) { $0 + $1.benchmark.count }) layers", "", "", "",
                    Self.milliseconds(ms), "", Self.rate(flops > 0 ? flops / (ms / 1000) / 1e9 : nil), "", "")
    }

    func jsonLine(_ m: Measurement) -> String {
        var fields: [(String, String)] = [
            ("benchmark", jsonStringLiteral(m.benchmark.name)), ("shape", jsonStringLiteral(m.benchmark.shape)),
            ("count", "\(m.benchmark.count)"), ("planned", m.benchmark.name.hasPrefix("conv ") ? "\(m.benchmark.planned)" : "null"), ("cfg", jsonStringLiteral(options.cfg.path)), ("size", "\(options.size)"),
            ("threads", "\(options.threads)"), ("runs", "\(m.runs)"), ("inner", "\(m.inner)"),
            ("min_ms", Self.number(m.wall.min)), ("median_ms", Self.number(m.wall.median)),
            ("max_ms", Self.number(m.wall.max)), ("cpu_median_ms", Self.number(m.cpu.median)),
        ]
        if let gflops = m.gflops { fields.append(("gflops", String(format: "%.2f", gflops))) }
        if let rate = m.gigabytesPerSecond { fields.append(("gb_per_s", String(format: "%.2f", rate))) }
        fields.append(("blas", jsonStringLiteral(BLAS.kernelName)))
        fields.append(("loadavg", jsonStringLiteral(loadAverage)))
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    func totalJSONLine(_ name: String, _ group: [Measurement]) -> String? {
        guard !group.isEmpty else { return nil }
        let (ms, flops) = Self.total(group)
        return "{\"benchmark\": \(jsonStringLiteral(name)), \"count\": \(group.reduce(0) { $0 + $1.benchmark.count }), "
            + "\"cfg\": \(jsonStringLiteral(options.cfg.path)), \"size\": \(options.size), \"threads\": \(options.threads), "
            + "\"median_ms\": \(Self.number(ms)), \"gflops\": \(String(format: "%.2f", flops / (ms / 1000) / 1e9)), "
            + "\"blas\": \(jsonStringLiteral(BLAS.kernelName)), \"loadavg\": \(jsonStringLiteral(loadAverage))}"
    }

    private static func total(_ group: [Measurement]) -> (milliseconds: Double, flops: Double) {
        (group.reduce(0) { $0 + $1.wall.median * Double($1.benchmark.count) },
         group.reduce(0) { $0 + $1.benchmark.flops * Double($1.benchmark.count) })
    }

    private static func milliseconds(_ value: Double) -> String {
        value >= 100 ? String(format: "%.1f", value) : value >= 1 ? String(format: "%.3f", value) : String(format: "%.4f", value)
    }

    private static func rate(_ value: Double?) -> String {
        guard let value else { return "-" }
        return String(format: "%.1f", value)
    }

    private static func number(_ value: Double) -> String { String(format: "%.5f", value) }
}

/// `/proc/loadavg`'s first three fields (empty where it does not exist).
func readLoadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
