import CommandLineKit
import Darknet
import DarknetImage
import BenchmarkKit
import Foundation

/// `darknet-bench`: load time, forward and detect (or classify) latency, GFLOPS, peak memory and a
/// per-layer profile for any Darknet cfg (with its weights or seeded random ones).
let usage = """
    usage: darknet-bench --cfg FILE (--weights FILE | --random) [--size 416] [--threads N] [--runs 20]
                         [--warmup 3] [--image FILE] [--seed 1] [--json] [--no-layers] [--serve] [--batch DIR]
                         [--live FPS [--frames 300] [--policy latest|every|stride:N]]
                         [--video FILE [--frames N] [--policy every|latest|stride:N]
                                       [--input-format NAME] [--input-option KEY=VALUE ...]] [--contend] [--fixed-threads]
                         [--memory-limit MIB]
                         [--precision bf16|fp16 [--kernels NAME] | --precision auto | --precision int8 (--calibrate DIR [--save-calibration FILE] | --calibration FILE) [--float-layers default|float-early|input-and-heads|none]]
      --random     seeded random weights (any cfg can be benchmarked; same cost as real ones)
      --threads    threads for each forward pass (default: the cores this process may use, its CPU affinity
                   and cgroup quota: \(AvailableCores.count) here)
      --size       network input width and height (default: the cfg's)
      --memory-limit  MiB the network may plan for weights, activations and scratch (default 4096;
                   yolov4-p6 at 1280x1280 needs 4.5 GB)
      --image      input image, letterboxed (default: Darknet's dog.jpg if fetched, else noise; noise
                   for an input that is not an RGB image)
      --json       print exactly one JSON line with the summary; a network without a detection head
                   is timed as a classifier (forward and its output's top 5: classify_median_ms)
      --serve      after loading and --warmup forwards, print a JSON line, then time one forward per
                   "forward" line on standard input (one JSON line each; peak RSS at end of input),
                   for drivers that interleave systems forward by forward
      --live       a synthetic camera (1280x720 BGRA frames of --image, default dog.jpg, a window panning
                   over it) produced on its own thread at FPS frames per second, through a DetectionPipeline
                   with --policy (default latest); prints frames, processed, dropped, input and processed
                   fps, the forward median and the capture-to-result lag (p50, p95, p95 of the first and
                   the last 100 frames); --json: exactly one JSON line
      --video      a video file, URL or camera (anything swift-darknet video opens, with its --input-format
                   and --input-option): decodes it alone (decode fps), then decodes it into a DetectionPipeline
                   with --policy (default every; latest for URLs and cameras) and prints end-to-end fps and
                   the decode-to-result lag (p50, p95); --frames caps both passes; --json: exactly one JSON line
      --batch      images/s over DIR's .jpg/.jpeg/.png files: sequential (decode, letterbox, forward,
                   boxes one after another), overlapped (the next image prepared during the forward),
                   with --threads N above 1 parallel (N images at once, one thread each: detect --jobs N
                   --threads 1), and the ceiling 1000 / forward median; --runs passes over the folder
                   (alternated), --warmup untimed overlapped passes after one untimed sequential pass
      --contend    a busy loop (a child process doing register arithmetic) pinned to the last CPU for the
                   whole measurement, as a busy neighbour on a shared machine; stopped at the end
      --busy-loop CPU  only that busy loop, pinned to CPU, until killed (what --contend and
                   Benchmarks/peers/compare.py --contend start)
      --fixed-threads  every forward on all --threads threads: without the session's thread policy, which
                   runs passes on 1 thread while it finds that faster
    \(PrecisionFlags.help)
                   (the calibration is a load phase of its own; --calibration FILE keeps it short)
    """

warnIfDebugBuild(tool: "darknet-bench")

func fail(_ message: String) -> Never { BenchmarkKit.fail("darknet-bench", message) }

let rawArguments = Array(CommandLine.arguments.dropFirst())
if rawArguments.count == 2, rawArguments[0] == "--busy-loop" {  // the child of --contend
    guard let cpu = Int(rawArguments[1]), cpu >= 0, cpu < 1024 else { fail("--busy-loop needs a CPU number") }
    runBusyLoop(cpu: cpu)
}
if rawArguments.contains("--help") || rawArguments.contains("-h") {
    print(usage)
    exit(0)
}

do {
    var arguments = try Arguments(rawArguments, flagNames: ["random", "json", "no-layers", "serve", "contend", "fixed-threads"])
    let options = try BenchOptions(arguments: &arguments)
    try arguments.rejectUnknown()
    let contention = options.contend ? try Contention() : nil
    defer { contention?.stop() }
    let contended = contention.map { "\n" + $0.description } ?? ""
    switch options.mode {
    case .video(let source):
        let report = try VideoBench(options: options, source: source).run()
        print(options.json ? report.jsonLine() : report.table() + contended)
    case .live(let fps):
        let report = try LiveBench(options: options, fps: fps, frames: options.frames,
                                   policy: options.policy ?? .latest).run()
        print(options.json ? report.jsonLine() : report.table() + contended)
    case .serve:
        try Bench(options: options).serve()
    case .batch(let folder):
        let report = try BatchBench(options: options, folder: folder).run()
        print(options.json ? report.jsonLine() : report.table() + contended)
    case .forward:
        let report = try Bench(options: options).run()
        if options.json {
            let line = report.jsonLine()
            print(String(line.dropLast()) + ", \"contend_cpu\": \(contention.map { String($0.cpu) } ?? "null")}")
        } else {
            print(report.table() + contended)
        }
    }
} catch let error as CLIError {  // a usage mistake: status 2, as swift-darknet's
    FileHandle.standardError.write(Data("darknet-bench: \(error)\n(darknet-bench --help lists the options)\n".utf8))
    exit(2)
} catch {
    fail(String(describing: error))
}
