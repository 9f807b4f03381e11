import Darknet
import DarknetImage
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// memory-check: YOLOv3-tiny detection RUNS times in one process (default 200); fails if the
// resident set (VmRSS in /proc/self/status) grows by more than LIMIT_MB (default 4) between
// the end of the warm-up (default 5 runs) and the last run.
//
//   memory-check [--runs N] [--warmup N] [--limit-mb MB] [--root DIR] [--dynamic-mmap-threshold]
//
// Every run decodes a sample JPEG from disk and detects in it (letterbox, forward pass,
// decoding, NMS), cycling through Darknet's sample images, so leaks in the decoders' C shims,
// the session pool or the detection path all show. DIR is the package root holding Weights/
// (default: the current directory).
//
// glibc raises its mmap threshold each time a large mmapped block is freed, after which such
// blocks come from the heap and stay resident once freed: with Darknet-sized images RSS then
// climbs ~8 MB over the first ~50 runs and stays flat, with nothing leaked. The threshold is
// pinned at glibc's default 128 KiB (mallopt), so freed large buffers go back to the system
// and RSS tracks live memory; --dynamic-mmap-threshold keeps glibc's behaviour.

struct Options {
    var runs = 200
    var warmup = 5
    var limitMB = 4.0
    var root = FileManager.default.currentDirectoryPath
    var pinMmapThreshold = true

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--dynamic-mmap-threshold" {
                pinMmapThreshold = false
                continue
            }
            guard let value = rest.popFirst() else { Self.usage("\(flag) needs a value") }
            switch flag {
            case "--runs": runs = Self.number(value, flag)
            case "--warmup": warmup = Self.number(value, flag)
            case "--limit-mb": limitMB = Self.number(value, flag)
            case "--root": root = value
            default: Self.usage("unknown option \(flag)")
            }
        }
        guard warmup >= 1, runs > warmup else { Self.usage("need runs > warmup >= 1") }
    }

    static func number<T: LosslessStringConvertible>(_ text: String, _ flag: String) -> T {
        guard let value = T(text) else { usage("\(flag) \(text): not a number") }
        return value
    }

    static func usage(_ problem: String) -> Never {
        FileHandle.standardError.write(Data("memory-check: \(problem)\nusage: memory-check [--runs N] [--warmup N] [--limit-mb MB] [--root DIR] [--dynamic-mmap-threshold]\n".utf8))
        exit(2)
    }
}

/// `mallopt(M_MMAP_THRESHOLD, bytes)`, looked up at run time (Swift's Glibc module does not
/// import <malloc.h>). Fails loudly rather than measure something else.
func pinMmapThreshold(bytes: Int32) {
    #if canImport(Glibc)
    let M_MMAP_THRESHOLD: Int32 = -3
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt"),
          unsafeBitCast(symbol, to: Mallopt.self)(M_MMAP_THRESHOLD, bytes) == 1 else {
        FileHandle.standardError.write(Data("memory-check: mallopt(M_MMAP_THRESHOLD) failed; pass --dynamic-mmap-threshold\n".utf8))
        exit(2)
    }
    #endif
}

/// Resident set size in KiB, from /proc/self/status.
func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
        FileHandle.standardError.write(Data("memory-check: cannot read VmRSS from /proc/self/status\n".utf8))
        exit(2)
    }
    return kib
}

func mb(_ kib: Int) -> String { String(format: "%.1f MB", Double(kib) / 1024) }

let options = Options(Array(CommandLine.arguments.dropFirst()))
if options.pinMmapThreshold { pinMmapThreshold(bytes: 128 * 1024) }
let darknet = URL(fileURLWithPath: options.root).appendingPathComponent("Weights/darknet")
let images = ["dog", "person", "horses", "eagle"].map { darknet.appendingPathComponent("data/\($0).jpg") }

let start = Date()
let detector: Detector
do {
    detector = try Detector(cfg: darknet.appendingPathComponent("cfg/yolov3-tiny.cfg"),
                            weights: URL(fileURLWithPath: options.root).appendingPathComponent("Weights/yolov3-tiny.weights"),
                            names: darknet.appendingPathComponent("data/coco.names"))
} catch {
    FileHandle.standardError.write(Data("memory-check: \(error) (run Weights/fetch.sh)\n".utf8))
    exit(2)
}
let afterLoad = residentKiB()

var baseline = 0
var peak = 0
var detections = 0
for run in 1...options.runs {
    do {
        let image = try PlanarImage(contentsOf: images[(run - 1) % images.count])
        detections += try detector.detect(image).count
    } catch {
        FileHandle.standardError.write(Data("memory-check: run \(run): \(error)\n".utf8))
        exit(1)
    }
    let rss = residentKiB()
    if run == options.warmup { baseline = rss }
    peak = max(peak, rss)
    if run == options.warmup || run % 50 == 0 || run == options.runs {
        print("run \(run): VmRSS \(mb(rss))")
    }
}
let final = residentKiB()
let growth = final - baseline
let seconds = Date().timeIntervalSince(start)
print("""
    memory-check: \(options.runs) YOLOv3-tiny detections (\(detections) objects) in \(String(format: "%.1f", seconds)) s
      after loading \(mb(afterLoad)), after \(options.warmup) warm-up runs \(mb(baseline)), peak \(mb(peak)), final \(mb(final))
      growth after warm-up \(String(format: "%+.2f MB", Double(growth) / 1024)) (limit \(options.limitMB) MB)
    """)
if Double(growth) / 1024 > options.limitMB {
    print("memory-check: FAILED, resident memory grew by \(mb(growth)) over \(options.runs - options.warmup) runs")
    exit(1)
}
