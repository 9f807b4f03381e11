import BenchmarkKit
import CommandLineKit
import Darknet
import Foundation

/// The numbers of one `--batch` run, as a table or a JSON line.
struct BatchBenchReport {
    let folder: String
    let cfg: String
    let size: Int
    let images: Int
    let threads: Int
    let passes: Int
    let lookAhead: Int
    /// Images per second of each pass over the folder.
    let sequential: Stats
    let overlapped: Stats
    /// `threads` images at once on one thread each; nil at one thread.
    let parallel: Stats?
    /// Milliseconds of one forward pass, and of decoding plus letterboxing one image.
    let forward: Stats
    let prepare: Stats
    let loadAverageStart: String
    let loadAverageEnd: String

    /// Images per second if only the forward passes took time: `1000 / forward median`.
    var ceiling: Double { 1000 / forward.median }

    /// The `--batch --json` contract: exactly one line.
    func jsonLine() -> String {
        String(format: #"{"batch": %@, "cfg": %@, "size": %d, "images": %d, "threads": %d, "passes": %d, "look_ahead": %d, "sequential_images_per_s": %.2f, "overlapped_images_per_s": %.2f, "parallel_images_per_s": %@, "ceiling_images_per_s": %.2f, "forward_median_ms": %.2f, "prepare_median_ms": %.2f, "blas": "%@", "loadavg_start": "%@", "loadavg_end": "%@"}"#,
               jsonStringLiteral(folder), jsonStringLiteral(cfg), size, images, threads, passes, lookAhead,
               sequential.median, overlapped.median, parallel.map { String(format: "%.2f", $0.median) } ?? "null",
               ceiling, forward.median, prepare.median, BLAS.kernelName, loadAverageStart, loadAverageEnd)
    }

    func table() -> String {
        var lines = [
            "\(images) images in \(folder), \(cfg) at \(size)x\(size), \(threads) thread(s), \(passes) passes, BLAS kernels: \(BLAS.kernelName)",
            "load average at start \(loadAverageStart), at end \(loadAverageEnd)",
            String(format: "sequential   %7.2f images/s (median pass; min %.2f, max %.2f): decode, letterbox, forward, boxes, one after another",
                   sequential.median, sequential.min, sequential.max),
            String(format: "overlapped   %7.2f images/s (median pass; min %.2f, max %.2f): %d image(s) decoded and letterboxed ahead on a second thread",
                   overlapped.median, overlapped.min, overlapped.max, lookAhead),
        ]
        if let parallel {
            lines.append(String(format: "parallel     %7.2f images/s (median pass; min %.2f, max %.2f): %d images at once, each forward pass on 1 thread (detect --jobs %d --threads 1)",
                                parallel.median, parallel.min, parallel.max, threads, threads))
        }
        lines.append(String(format: "ceiling      %7.2f images/s: 1000 / forward median %.2f ms", ceiling, forward.median))
        lines.append(String(format: "decode + letterbox median %.2f ms per image (min %.2f, max %.2f)", prepare.median, prepare.min, prepare.max))
        return lines.joined(separator: "\n")
    }
}
