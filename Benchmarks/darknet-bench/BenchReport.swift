import CommandLineKit
import BenchmarkKit
import Darknet
import Foundation

/// The numbers one benchmark run produced, as a table or a JSON line.
struct BenchReport {
    let cfg: String
    /// `float32` or `int8` (`--precision`; `int8Layers` counts the convolutions in int8).
    let precision: String
    let size: Int
    let threads: Int
    let runs: Int
    let loadMilliseconds: Double
    /// Where the load time went (name, milliseconds), in order.
    let loadPhases: [(String, Double)]
    let forward: Stats
    let forwardCPU: Stats
    /// Every timed forward pass, in order (wall and process CPU milliseconds).
    let forwardSamples: [Double]
    let forwardCPUSamples: [Double]
    /// Timed forwards the session's thread policy ran on fewer than `threads` threads.
    let fewerThreadForwards: Int
    /// A forward pass and its results: decoded detections, or a classifier's top 5 (`detects`).
    let results: Stats
    /// Whether the network has a detection head (else it is timed as a classifier).
    let detects: Bool
    let flops: Int
    let peakResidentMegabytes: Double
    let sessionMegabytes: Double
    let weightsMegabytes: Double
    /// The weights as laid out for each layer's algorithm (Winograd layers hold 4x).
    let residentWeightsMegabytes: Double
    let plan: NetworkPlan
    let layerMilliseconds: [Double]

    var gflops: Double { Double(flops) / (forward.median / 1000) / 1e9 }
    /// Convolutions the plan runs in int8 (`--precision int8`, `--float-layers`), those in
    /// 16-bit integers (`.int16Direct`) included.
    var int8Layers: Int { plan.integerConvolutions.all }
    /// Of those, the ones in 16-bit integers.
    var int16Layers: Int { plan.integerConvolutions.sixteenBit }

    /// The `--json` contract: exactly one line. After the summary, `load_phases_ms` (where the
    /// load went), then `forward_ms` / `forward_cpu_ms` (every timed forward), for tools that
    /// pool samples over several runs.
    func jsonLine() -> String {
        let samples = { (values: [Double]) in "[" + values.map { String(format: "%.3f", $0) }.joined(separator: ", ") + "]" }
        let line = String(format: #"{"cfg": %@, "size": %d, "threads": %d, "runs": %d, "load_ms": %.2f, "median_ms": %.2f, "min_ms": %.2f, "max_ms": %.2f, "gflops": %.2f, "detect_median_ms": %@, "peak_rss_mb": %.1f, "cpu_median_ms": %.2f, "blas": "%@"}"#,
               jsonStringLiteral(cfg), size, threads, runs, loadMilliseconds, forward.median, forward.min, forward.max, gflops,
               detects ? String(format: "%.2f", results.median) : "null", peakResidentMegabytes, forwardCPU.median, BLAS.kernelName)
        let classify = detects ? "" : String(format: ", \"classify_median_ms\": %.2f", results.median)
        return String(line.dropLast()) + classify + ", \"fewer_thread_forwards\": \(fewerThreadForwards)"
            + ", \"precision\": \"\(precision)\", \"int8_layers\": \(int8Layers), \"int16_layers\": \(int16Layers), \"load_phases_ms\": \(jsonMilliseconds(loadPhases))"
            + ", \"forward_ms\": \(samples(forwardSamples)), \"forward_cpu_ms\": \(samples(forwardCPUSamples))}"
    }

    func table() -> String {
        var lines: [String] = []
        lines.append("\(cfg) at \(size)x\(size), \(precision)\(int8Layers > 0 ? " (\(int8Layers) convolutions, \(int16Layers) of them in 16 bits)" : ""), \(threads) thread(s), \(runs) runs, \(String(format: "%.3f", Double(flops) / 1e9)) GFLOP, BLAS kernels: \(BLAS.kernelName)")
        lines.append(String(format: "load + plan      %8.2f ms", loadMilliseconds) + " ("
                     + loadPhases.map { String(format: "%@ %.1f", $0.0, $0.1) }.joined(separator: ", ") + ")")
        lines.append(String(format: "forward          min %8.2f  median %8.2f  max %8.2f ms   %.1f GFLOPS", forward.min, forward.median, forward.max, gflops))
        if threads > 1 {
            lines.append("forwards on fewer than \(threads) threads (the session's thread policy): \(fewerThreadForwards) of \(runs)")
        }
        lines.append(String(format: "forward CPU time min %8.2f  median %8.2f  max %8.2f ms (all threads)", forwardCPU.min, forwardCPU.median, forwardCPU.max))
        lines.append(String(format: "%@ min %8.2f  median %8.2f  max %8.2f ms", detects ? "detect          " : "classify (top 5)",
                            results.min, results.median, results.max))
        lines.append(String(format: "peak RSS %.1f MB (weights %.1f MB in the file, %.1f MB laid out for the kernels; arena + workspace %.1f MB)",
                            peakResidentMegabytes, weightsMegabytes, residentWeightsMegabytes, sessionMegabytes))
        guard !layerMilliseconds.isEmpty else { return lines.joined(separator: "\n") }
        let total = layerMilliseconds.reduce(0, +)
        lines.append("")
        lines.append("layer  type            output            ms     GFLOPS   share")
        for layer in plan.layers {
            let ms = layerMilliseconds[layer.index]
            let gflops = layer.flops > 0 && ms > 0 ? Double(layer.flops) / (ms / 1000) / 1e9 : 0
            let shape = layer.outputShape
            lines.append(String(format: "%5d  %-14@ %4dx%4dx%5d %8.3f %8.1f %6.1f%%", layer.index, layer.spec.kind.sectionName,
                                shape.width, shape.height, shape.channels, ms, gflops, 100 * ms / total))
        }
        lines.append(String(format: "sum of layer medians %.2f ms", total))
        if !plan.fusibleMaxpools.isEmpty {
            let pools = plan.fusibleMaxpools.sorted().map(String.init).joined(separator: ", ")
            lines.append("maxpool \(pools): computed with the convolution before each, whose row holds the time")
        }
        return lines.joined(separator: "\n")
    }
}

/// A JSON object of named durations in milliseconds: `{"parse": 1.52, ...}`, in order.
func jsonMilliseconds(_ durations: [(String, Double)]) -> String {
    "{" + durations.map { String(format: "%@: %.2f", jsonStringLiteral($0.0), $0.1) }.joined(separator: ", ") + "}"
}
