import CommandLineKit
import Darknet
import BenchmarkKit
import Foundation

/// `darknet-microbench`: each kernel on the shapes a network gives it (sgemm per convolution
/// shape, im2col, activations, pooling, upsample, route, shortcut), plus letterbox and NMS, and
/// the int8 GEMM per variant against sgemm (`--filter int8`).
let usage = """
    usage: darknet-microbench [--cfg FILE] [--size 416] [--threads 1] [--runs 10] [--warmup 2]
                              [--filter SUBSTRING] [--json]
      --cfg        network whose layer shapes are measured (default: Weights/darknet/cfg/yolov3-tiny.cfg)
      --size       network input width and height (default 416)
      --threads    threads for sgemm (inside the BLAS) and the convolution paths (split as the forward
                   pass splits them, the BLAS single-threaded); other kernels are single-threaded
      --runs       timed samples per benchmark; min/median/max are per call
      --warmup     untimed calls before them (at least 1)
      --filter     only benchmarks whose name contains SUBSTRING (case-insensitive), e.g. sgemm, im2col, L4, int8
      --json       one JSON line per benchmark instead of the table
    """

warnIfDebugBuild(tool: "darknet-microbench")

func fail(_ message: String) -> Never { BenchmarkKit.fail("darknet-microbench", message) }

let rawArguments = Array(CommandLine.arguments.dropFirst())
if rawArguments.contains("--help") || rawArguments.contains("-h") {
    print(usage)
    exit(0)
}

do {
    var arguments = try Arguments(rawArguments, flagNames: ["json"])
    let options = try MicroOptions(arguments: &arguments)
    try arguments.rejectUnknown()
    guard arguments.positionals.isEmpty else { throw CLIError("unexpected argument '\(arguments.positionals[0])'") }

    let bytes: [UInt8]
    do { bytes = [UInt8](try Data(contentsOf: options.cfg)) } catch { throw CLIError("\(options.cfg.path): cannot read the file") }
    let spec = try NetworkSpec.parse(bytes: bytes, file: options.cfg.path).resized(width: options.size, height: options.size)
    let plan = try NetworkPlan(spec: spec)
    try BLAS.ensureLoaded()
    BLAS.setThreads(1)  // the sgemm benchmarks raise it to --threads while they run

    let benchmarks = Suites(plan: plan, inputSize: options.size, split: ThreadSplit(threads: options.threads)).all().filter { options.selects($0.name) }
    guard !benchmarks.isEmpty else { throw CLIError("no benchmark matches --filter '\(options.filter ?? "")'") }
    let report = Report(options: options, loadAverage: readLoadAverage(), benchmarks: benchmarks)
    if !options.json {
        print("\(options.cfg.path) at \(options.size)x\(options.size), \(options.threads) thread(s), "
              + "\(options.runs) runs after \(options.warmup) warm-up, BLAS kernels: \(BLAS.kernelName), "
              + "load average \(report.loadAverage)")
        print("times are per call; cpu/wall = process CPU time / wall time (about 1 per busy thread); "
              + "conv ... * = the path the planner picks for that layer")
        print(report.header)
    }
    var measurements: [Measurement] = []
    for benchmark in benchmarks {
        let measurement = measure(benchmark, runs: options.runs, warmup: options.warmup)
        measurements.append(measurement)
        print(options.json ? report.jsonLine(measurement) : report.row(measurement))
        fflush(nil)  // each row as soon as it is measured (all streams: `stdout` is not concurrency-safe)
    }
    let convolutions = measurements.filter { $0.benchmark.name.hasPrefix("conv ") }
    let groups = [("sgemm total", measurements.filter { $0.benchmark.name.hasPrefix("sgemm ") }),
                  ("conv im2col+sgemm total", convolutions.filter { $0.benchmark.name.hasSuffix("im2col+sgemm") }),
                  ("conv as planned total", convolutions.filter(\.benchmark.planned))]
    for (name, group) in groups {
        if let line = options.json ? report.totalJSONLine(name, group) : report.totalRow(name, group) { print(line) }
    }
    if !options.json { print("load average at the end \(readLoadAverage())") }
} catch {
    fail(String(describing: error))
}
