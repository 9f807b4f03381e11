import BenchmarkKit
import CommandLineKit
import Darknet
import DarknetImage
import Foundation

/// `--live FPS`: a synthetic camera — 1280x720 BGRA frames of a photo, a window panning over
/// it, each frame a fresh buffer as a camera hands over — produced on its own thread at FPS
/// frames per second and fed through a `DetectionPipeline` with the chosen policy.
struct LiveBench {
    let options: BenchOptions
    let fps: Double
    let frames: Int
    let policy: FramePolicy

    static let frameWidth = 1280, frameHeight = 720

    /// The numbers of one run.
    struct Report {
        var frames = 0, processed = 0, dropped = 0
        var inputFPS = 0.0, processedFPS = 0.0, forwardMedian = 0.0
        var lagP50 = 0.0, lagP95 = 0.0, lagP95First = 0.0, lagP95Last = 0.0
        var policy = ""

        func jsonLine() -> String {
            String(format: #"{"frames": %d, "processed": %d, "dropped": %d, "input_fps": %.2f, "processed_fps": %.2f, "forward_median_ms": %.2f, "lag_p50_ms": %.2f, "lag_p95_ms": %.2f, "lag_p95_first_ms": %.2f, "lag_p95_last_ms": %.2f, "policy": "%@"}"#,
                   frames, processed, dropped, inputFPS, processedFPS, forwardMedian, lagP50, lagP95, lagP95First,
                   lagP95Last, policy)
        }

        func table() -> String {
            """
            live camera: \(frames) frames of \(LiveBench.frameWidth)x\(LiveBench.frameHeight) BGRA, policy \(policy)
            processed \(processed), dropped \(dropped); input \(String(format: "%.2f", inputFPS)) fps, processed \(String(format: "%.2f", processedFPS)) fps (forward median \(String(format: "%.2f", forwardMedian)) ms: at most \(String(format: "%.2f", 1000 / max(forwardMedian, 1e-9))) fps)
            capture-to-result lag: p50 \(String(format: "%.2f", lagP50)) ms, p95 \(String(format: "%.2f", lagP95)) ms; p95 over the first 100 frames \(String(format: "%.2f", lagP95First)) ms, the last 100 \(String(format: "%.2f", lagP95Last)) ms
            """
        }
    }

    func run() throws -> Report {
        let spec = try options.spec()
        let network = try options.network(spec, options: try options.planOptions(spec))
        let detector = try Detector(network: network, threads: options.threads)
        let camera = try SyntheticCamera(photo: try photo(), width: Self.frameWidth, height: Self.frameHeight)
        let pipeline = DetectionPipeline(detector: detector, policy: policy)
        let clock = ContinuousClock()

        let collected = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                for try await result in pipeline.results { collected.append(result, at: clock.now) }
            } catch {
                collected.fail(error)
            }
            done.signal()
        }
        let producer = Thread { [frames, fps] in
            let start = clock.now
            for index in 0..<frames {
                let due = start + .rounded(seconds: Double(index) / fps)
                while clock.now < due { usleep(UInt32(min(1000, max(1, (due - clock.now).inNanoseconds / 1000)))) }
                let frame = Frame(pixels: camera.frame(index), presentationTime: .rounded(seconds: Double(index) / fps),
                                  index: index, captureInstant: clock.now)
                collected.produced(at: clock.now)
                try? pipeline.submit(frame)
            }
            pipeline.finish()
        }
        producer.start()
        done.wait()
        return try collected.report(frames: frames, policy: policy)
    }

    private func photo() throws -> PlanarImage {
        let url = options.image ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Weights/darknet/data/dog.jpg")
        return try PlanarImage(contentsOf: url)
    }
}

/// Frames of a photo scaled to 1.2x the frame size, a window panning over it and back.
struct SyntheticCamera: Sendable {
    let width: Int, height: Int
    private let scene: PixelBuffer

    init(photo: PlanarImage, width: Int, height: Int) throws {
        let scale = max(Double(width) * 1.2 / Double(photo.width), Double(height) * 1.2 / Double(photo.height))
        scene = try photo.resized(width: Int((Double(photo.width) * scale).rounded()),
                                  height: Int((Double(photo.height) * scale).rounded())).pixelBuffer(format: .bgra)
        self.width = width
        self.height = height
    }

    /// Frame `index`: a fresh BGRA buffer, the window 2 pixels right and 1 down per frame, bouncing.
    func frame(_ index: Int) -> PixelBuffer {
        func bounce(_ step: Int, _ range: Int) -> Int {
            guard range > 0 else { return 0 }
            let phase = step % (2 * range)
            return phase <= range ? phase : 2 * range - phase
        }
        let x = bounce(2 * index, scene.width - width), y = bounce(index, scene.height - height)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        scene.withUnsafePlane(0) { source, stride in
            bytes.withUnsafeMutableBytes { destination in
                for row in 0..<height {
                    (destination.baseAddress! + row * width * 4)
                        .copyMemory(from: source.baseAddress! + (y + row) * stride + x * 4, byteCount: width * 4)
                }
            }
        }
        // Exactly width * height * 4 bytes: this cannot fail.
        return (try? PixelBuffer(format: .bgra, width: width, height: height, bytes: bytes))!
    }
}

/// Results and production times collected across threads.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [(FrameResult, ContinuousClock.Instant)] = []
    private var productionTimes: [ContinuousClock.Instant] = []
    private var error: (any Error)?

    func append(_ result: FrameResult, at time: ContinuousClock.Instant) { lock.withLock { results.append((result, time)) } }
    func produced(at time: ContinuousClock.Instant) { lock.withLock { productionTimes.append(time) } }
    func fail(_ error: any Error) { lock.withLock { self.error = error } }

    func report(frames: Int, policy: FramePolicy) throws -> LiveBench.Report {
        try lock.withLock {
            if let error { throw error }
            var report = LiveBench.Report()
            report.frames = frames
            report.policy = policy.description
            report.processed = results.count
            report.dropped = results.last?.0.statistics.dropped ?? 0
            if let first = productionTimes.first, let last = productionTimes.last, last > first {
                report.inputFPS = Double(productionTimes.count - 1) / (last - first).inSeconds
            }
            if let first = results.first?.1, let last = results.last?.1, last > first {
                report.processedFPS = Double(results.count - 1) / (last - first).inSeconds
            }
            report.forwardMedian = Stats(results.map { $0.0.statistics.forwardTime.inSeconds * 1000 }).median
            let lags = results.map { $0.0.statistics.captureToResult.inSeconds * 1000 }
            report.lagP50 = Self.percentile(lags, 50)
            report.lagP95 = Self.percentile(lags, 95)
            report.lagP95First = Self.percentile(results.filter { $0.0.index < 100 }.map(\.0.statistics.captureToResultMilliseconds), 95)
            report.lagP95Last = Self.percentile(results.filter { $0.0.index >= frames - 100 }.map(\.0.statistics.captureToResultMilliseconds), 95)
            return report
        }
    }

    /// The nearest-rank percentile (0 for no values).
    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(values.count)).rounded(.up))
        return values.sorted()[min(max(rank, 1), values.count) - 1]
    }
}

extension FrameStatistics {
    var captureToResultMilliseconds: Double { captureToResult.inSeconds * 1000 }
}
