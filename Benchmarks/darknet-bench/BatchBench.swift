import BatchDetection
import BenchmarkKit
import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `--batch DIR`: images per second over a folder of images, run one step after another, with
/// the next image decoded and letterboxed during the forward pass, and (with `--threads N`, N
/// above 1) N images at once on one thread each (`detect --jobs N --threads 1`), against the
/// ceiling the forward pass alone allows.
struct BatchBench {
    let options: BenchOptions
    let folder: String
    /// Images prepared ahead in the overlapped runs (what `swift-darknet detect` uses).
    static let lookAhead = 1

    func run() throws -> BatchBenchReport {
        let startLoad = Self.loadAverage()
        let paths = try ImageInputs.images(inDirectory: folder, recursive: false)
        guard !paths.isEmpty else { throw BatchInputError.noImages(directory: folder, recursive: false) }
        let spec = try options.spec()
        let network = try options.network(spec, options: try options.planOptions(spec))
        let detector = try Detector(network: network, threads: options.threads)
        let detectionOptions = DetectionOptions()
        let sequential = BatchDetector(detector: detector, options: detectionOptions, lookAhead: 0)
        let overlapped = BatchDetector(detector: detector, options: detectionOptions, lookAhead: Self.lookAhead)
        let parallel = options.threads > 1
            ? BatchDetector(detector: try Detector(network: network, threads: 1), options: detectionOptions, jobs: options.threads)
            : nil
        let session = InferenceSession(network: network, threads: options.threads)

        // Untimed: a failing image would make the rates meaningless, and caches get warm.
        try pass(sequential, paths)
        for _ in 0..<options.warmup {
            try pass(overlapped, paths)
            if let parallel { try pass(parallel, paths) }
        }

        // The three measurements alternate pass by pass, so a slow minute of the machine
        // falls on all of them.
        var sequentialRates: [Double] = [], overlappedRates: [Double] = [], parallelRates: [Double] = []
        var forwardMilliseconds: [Double] = [], prepareMilliseconds: [Double] = []
        for round in 0..<options.runs {
            let batches = [sequential, overlapped] + (parallel.map { [$0] } ?? [])
            let order = round % 2 == 0 ? batches : batches.reversed()
            for batch in order {
                let start = Clock.now
                try pass(batch, paths)
                let rate = Double(paths.count) / (Clock.milliseconds(since: start) / 1000)
                if batch.jobs > 1 {
                    parallelRates.append(rate)
                } else if batch.lookAhead == 0 {
                    sequentialRates.append(rate)
                } else {
                    overlappedRates.append(rate)
                }
            }
            for path in paths {
                let prepareStart = Clock.now
                let (input, _) = try detector.prepare(PlanarImage(contentsOf: URL(fileURLWithPath: path)))
                prepareMilliseconds.append(Clock.milliseconds(since: prepareStart))
                let start = Clock.now
                try session.forward(input.pixels)
                forwardMilliseconds.append(Clock.milliseconds(since: start))
            }
        }
        return BatchBenchReport(folder: folder, cfg: options.cfg.path, size: network.inputShape.width, images: paths.count,
                                threads: options.threads, passes: options.runs, lookAhead: Self.lookAhead,
                                sequential: Stats(sequentialRates), overlapped: Stats(overlappedRates),
                                parallel: parallelRates.isEmpty ? nil : Stats(parallelRates),
                                forward: Stats(forwardMilliseconds), prepare: Stats(prepareMilliseconds),
                                loadAverageStart: startLoad, loadAverageEnd: Self.loadAverage())
    }

    /// One pass over the folder; throws on the first image that fails.
    private func pass(_ batch: BatchDetector, _ paths: [String]) throws {
        try batch.run(paths) { item in
            if case .failure(let error) = item.result { throw CLIError("\(item.path): \(error)") }
        }
    }

    /// `/proc/loadavg`'s 1, 5 and 15 minute averages ("?" where unavailable).
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
