import BenchmarkKit
import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// Runs the measurements; setup stays outside every timed region.
struct Bench {
    let options: BenchOptions

    func run() throws -> BenchReport {
        let loadStart = Clock.now
        var spec = try NetworkSpec.parse(bytes: try readBytes(options.cfg), file: options.cfg.path)
        if let size = options.size { spec = spec.resized(width: size, height: size) }
        let parseMilliseconds = Clock.milliseconds(since: loadStart)
        let blasStart = Clock.now
        try BLAS.ensureLoaded()  // once per process; would otherwise be inside the network's load
        let blasMilliseconds = Clock.milliseconds(since: blasStart)
        let networkStart = Clock.now
        let network: Network
        if let weights = options.weights {
            network = try Network(spec: spec, weightsFile: weights)
        } else {
            network = try Network(spec: spec, randomSeed: options.seed)
        }
        let networkMilliseconds = Clock.milliseconds(since: networkStart)
        let sessionStart = Clock.now
        let session = InferenceSession(network: network, threads: options.threads)
        let sessionMilliseconds = Clock.milliseconds(since: sessionStart)
        let loadMilliseconds = Clock.milliseconds(since: loadStart)
        let loadPhases = [("parse", parseMilliseconds), ("open BLAS", blasMilliseconds),
                          ("plan + weights", networkMilliseconds), ("session", sessionMilliseconds)]

        let (input, geometry) = try prepareInput(network)
        for _ in 0..<options.warmup { try session.forward(input) }
        var forward: [Double] = []
        var forwardCPU: [Double] = []
        for _ in 0..<options.runs {
            let cpuStart = Clock.processCPU
            let start = Clock.now
            try session.forward(input)
            forward.append(Clock.milliseconds(since: start))
            forwardCPU.append(Clock.processCPU - cpuStart)
        }
        var detect: [Double] = []
        let detectionOptions = DetectionOptions()
        for _ in 0..<options.runs {
            let start = Clock.now
            try session.forward(input)
            _ = try DetectionDecoder.decode(session, geometry: geometry, labels: [], options: detectionOptions)
            detect.append(Clock.milliseconds(since: start))
        }
        var layers: [[Double]] = Array(repeating: [], count: network.plan.layers.count)
        if options.layerProfile {
            var times = [UInt64](repeating: 0, count: network.plan.layers.count)
            for _ in 0..<options.runs {
                try session.forward(input, layerNanoseconds: &times)
                for (i, t) in times.enumerated() { layers[i].append(Double(t) / 1e6) }
            }
        }
        return BenchReport(cfg: options.cfg.path, size: network.inputShape.width, threads: options.threads,
                           runs: options.runs, loadMilliseconds: loadMilliseconds, loadPhases: loadPhases,
                           forward: Stats(forward),
                           forwardCPU: Stats(forwardCPU), forwardSamples: forward, forwardCPUSamples: forwardCPU,
                           detect: Stats(detect), flops: network.plan.flops,
                           peakResidentMegabytes: Memory.peakResidentMegabytes(),
                           sessionMegabytes: Double(session.allocatedBytes) / 1_048_576,
                           weightsMegabytes: Double(network.plan.parameterCount * 4) / 1_048_576,
                           residentWeightsMegabytes: Double(network.plan.residentParameterCount * 4) / 1_048_576,
                           plan: network.plan, layerMilliseconds: options.layerProfile ? layers.map { Stats($0).median } : [])
    }

    private func prepareInput(_ network: Network) throws -> ([Float], LetterboxGeometry) {
        let shape = network.inputShape
        let defaultImage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Weights/darknet/data/dog.jpg")
        if let url = options.image ?? (FileManager.default.fileExists(atPath: defaultImage.path) ? defaultImage : nil) {
            let (image, geometry) = try Image(contentsOf: url).letterboxed(width: shape.width, height: shape.height)
            return (image.pixels, geometry)
        }
        var state: UInt32 = 12345
        let noise = (0..<shape.count).map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24)
        }
        return (noise, LetterboxGeometry(imageWidth: shape.width, imageHeight: shape.height,
                                         networkWidth: shape.width, networkHeight: shape.height))
    }
}

func readBytes(_ url: URL) throws -> [UInt8] {
    do { return [UInt8](try Data(contentsOf: url)) } catch { throw CLIError("\(url.path): cannot read the file") }
}
