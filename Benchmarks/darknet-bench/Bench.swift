import BenchmarkKit
import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// Runs the measurements; setup stays outside every timed region.
struct Bench {
    let options: BenchOptions

    /// A network loaded and planned, a session over it and the prepared input.
    struct Loaded {
        let network: Network
        let session: InferenceSession
        let input: [Float]
        let geometry: LetterboxGeometry
        let loadMilliseconds: Double
        /// Where the load time went (name, milliseconds), in order.
        let loadPhases: [(String, Double)]
    }

    /// Loads the network (timed, phase by phase), opens a session and prepares the input.
    func load() throws -> Loaded {
        let loadStart = Clock.now
        // What every first load pays once: opening OpenBLAS and the plan's probe of it.
        try BLAS.ensureLoaded()
        _ = CPUFeatures.current
        let blasMilliseconds = Clock.milliseconds(since: loadStart)
        let parseStart = Clock.now
        let spec = try options.spec()
        let parseMilliseconds = Clock.milliseconds(since: parseStart)
        // int8: the calibration (read, or measured on the float network) is a phase of its own.
        let calibrationStart = Clock.now
        let planOptions = try options.planOptions(spec)
        let calibrationMilliseconds = Clock.milliseconds(since: calibrationStart)
        let networkStart = Clock.now
        let network = try options.network(spec, options: planOptions)
        let networkMilliseconds = Clock.milliseconds(since: networkStart)
        let sessionStart = Clock.now
        let session = options.session(network)
        let sessionMilliseconds = Clock.milliseconds(since: sessionStart)
        let loadMilliseconds = Clock.milliseconds(since: loadStart)
        let loadPhases = [("BLAS", blasMilliseconds), ("parse", parseMilliseconds)] + (options.precision.int8 ? [("calibration", calibrationMilliseconds)] : [])
            + [("plan + weights", networkMilliseconds), ("session", sessionMilliseconds)]
        let (input, geometry) = try prepareInput(network)
        return Loaded(network: network, session: session, input: input, geometry: geometry,
                      loadMilliseconds: loadMilliseconds, loadPhases: loadPhases)
    }

    func run() throws -> BenchReport {
        let loaded = try load()
        let network = loaded.network, session = loaded.session, input = loaded.input, geometry = loaded.geometry
        for _ in 0..<options.warmup { try session.forward(input) }
        var forward: [Double] = []
        var forwardCPU: [Double] = []
        var fewerThreads = 0
        for _ in 0..<options.runs {
            let (wall, cpu) = try Self.timedForward(session, input)
            forward.append(wall)
            forwardCPU.append(cpu)
            if session.lastPassThreads < session.threads { fewerThreads += 1 }
        }
        // A detector's forward and decoding; a network without a detection head (a classifier, a
        // recurrent network) is read as a classifier: the top 5 of its output layer.
        let classifierOutput = network.plan.classifierOutput
        var results: [Double] = []
        let detectionOptions = DetectionOptions()
        for _ in 0..<options.runs {
            let start = Clock.now
            try session.forward(input)
            if let classifierOutput {
                _ = try session.withOutput(ofLayer: classifierOutput) { values, _ in Classifier.topK(values, count: 5) }
            } else {
                _ = try DetectionDecoder.decode(session, geometry: geometry, labels: [], options: detectionOptions)
            }
            results.append(Clock.milliseconds(since: start))
        }
        var layers: [[Double]] = Array(repeating: [], count: network.plan.layers.count)
        if options.layerProfile {
            var times = [UInt64](repeating: 0, count: network.plan.layers.count)
            for _ in 0..<options.runs {
                try session.forward(input, layerNanoseconds: &times)
                for (i, t) in times.enumerated() { layers[i].append(Double(t) / 1e6) }
            }
        }
        return BenchReport(cfg: options.cfg.path, precision: options.precisionName, size: network.inputShape.width, threads: options.threads,
                           runs: options.runs, loadMilliseconds: loaded.loadMilliseconds, loadPhases: loaded.loadPhases,
                           forward: Stats(forward),
                           forwardCPU: Stats(forwardCPU), forwardSamples: forward, forwardCPUSamples: forwardCPU,
                           fewerThreadForwards: fewerThreads,
                           results: Stats(results), detects: classifierOutput == nil, flops: network.plan.flops,
                           peakResidentMegabytes: Memory.peakResidentMegabytes(),
                           sessionMegabytes: Double(session.allocatedBytes) / 1_048_576,
                           weightsMegabytes: Double(network.plan.parameterCount * 4) / 1_048_576,
                           residentWeightsMegabytes: Double(network.plan.residentParameterCount * 4) / 1_048_576,
                           plan: network.plan, layerMilliseconds: options.layerProfile ? layers.map { Stats($0).median } : [])
    }

    /// `--serve`: loads and warms up, prints one JSON line (`ready`, the load), then runs one
    /// timed forward for each `forward` line on standard input and answers each with a JSON line
    /// (`forward_ms`, `forward_cpu_ms`); at the end of the input, prints `peak_rss_mb` and returns.
    /// Lets a driver interleave single forwards of several systems, each in its own process.
    func serve() throws {
        let loaded = try load()
        for _ in 0..<options.warmup { try loaded.session.forward(loaded.input) }
        emit(String(format: #"{"ready": true, "load_ms": %.2f, "load_phases_ms": %@, "blas": "%@"}"#,
                    loaded.loadMilliseconds, jsonMilliseconds(loaded.loadPhases), BLAS.kernelName))
        while let line = readLine() {
            switch line.trimmingCharacters(in: .whitespaces) {
            case "forward":
                let (wall, cpu) = try Self.timedForward(loaded.session, loaded.input)
                emit(String(format: #"{"forward_ms": %.3f, "forward_cpu_ms": %.3f, "threads_used": %d}"#, wall, cpu,
                            loaded.session.lastPassThreads))
            case "": continue
            case let command: throw CLIError("--serve: unknown command \(command) (expected forward)")
            }
        }
        emit(String(format: #"{"peak_rss_mb": %.1f}"#, Memory.peakResidentMegabytes()))
    }

    /// One forward pass: wall time and process CPU time (all threads), in milliseconds.
    private static func timedForward(_ session: InferenceSession, _ input: [Float]) throws -> (wall: Double, cpu: Double) {
        let cpuStart = Clock.processCPU
        let start = Clock.now
        try session.forward(input)
        return (Clock.milliseconds(since: start), Clock.processCPU - cpuStart)
    }

    /// One line, written at once (unbuffered): the driver waits for it.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func prepareInput(_ network: Network) throws -> ([Float], LetterboxGeometry) {
        let shape = network.inputShape
        let defaultImage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Weights/darknet/data/dog.jpg")
        // An image only for an RGB input; any other input (one channel, a vector) is noise.
        if options.image != nil && shape.channels != 3 {
            throw CLIError("--image: the network's input is \(shape), not an RGB image")
        }
        if shape.channels == 3, let url = options.image ?? (FileManager.default.fileExists(atPath: defaultImage.path) ? defaultImage : nil) {
            let (image, geometry) = try PlanarImage(contentsOf: url).letterboxed(width: shape.width, height: shape.height)
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

extension NetworkPlan {
    /// For a network without a detection head, the layer darknet-bench reads it at, as a
    /// `Classifier` would; nil for a detector.
    var classifierOutput: Int? { detectionHeads.isEmpty ? Classifier.outputLayer(of: self)?.index : nil }
}
