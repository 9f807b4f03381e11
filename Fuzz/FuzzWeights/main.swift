#if FUZZ_REPLAY
import FuzzReplay
#endif
@_spi(Testing) import Darknet
import Foundation

// libFuzzer target: one input is a `.weights` file, loaded against every network below.
// A load must fail with a `WeightsError`, or succeed having consumed exactly the bytes the
// network needs (no silent truncation, no ignored tail); a small network that loads is run
// and decoded, so extreme-but-finite parameters reach the kernels and the decoder. The same
// bytes are also written to a file and loaded from it (Winograd layers read a run of one block at
// a time, not the loader's 1 MB, so that small layers cross several runs): the two loads must
// fail with the same error or give bit-identical outputs.
//
// The cfgs: Fuzz/Seeds/cfg/small-*.cfg and Darknet's yolov3-tiny.cfg (Weights/darknet/cfg),
// or the files listed (colon-separated) in FUZZ_WEIGHTS_CFGS.

enum Networks {
    static let specs: [NetworkSpec] = {
        let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let defaults = [
            fuzzRoot.appendingPathComponent("Seeds/cfg/small-yolo.cfg").path,
            fuzzRoot.appendingPathComponent("Seeds/cfg/small-activations.cfg").path,
            fuzzRoot.appendingPathComponent("Seeds/cfg/small-winograd.cfg").path,
            fuzzRoot.appendingPathComponent("Seeds/cfg/small-runs.cfg").path,
            fuzzRoot.appendingPathComponent("../Weights/darknet/cfg/yolov3-tiny.cfg").standardized.path,
        ]
        let paths = ProcessInfo.processInfo.environment["FUZZ_WEIGHTS_CFGS"].map { $0.split(separator: ":").map(String.init) } ?? defaults
        return paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else { fatalError("FuzzWeights: cannot read \(path)") }
            do { return try NetworkSpec.parse(bytes: [UInt8](data), file: path) } catch { fatalError("FuzzWeights: \(error)") }
        }
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    let file = WeightsCopy.write(bytes)
    for spec in Networks.specs {
        let fromMemory = load { try Network(spec: spec, weights: bytes, weightsName: file.path) }
        let fromFile = load { try Network(spec: spec, weights: file, floatsPerRun: 1) }
        switch (fromMemory, fromFile) {
        case (.failure(let error), .failure(let fileError)):
            check(error.offset >= 0 && error.offset <= size, "offset \(error.offset) outside a \(size)-byte file: \(error)")
            check(error.layer.map { spec.layers.indices.contains($0) } ?? true, "no such layer: \(error)")
            check(fileError == error, "file and memory loads fail differently: \(fileError) / \(error)")
        case (.success(let network), .success(let fileNetwork)):
            check(size == network.header.byteCount + 4 * WeightsWriter.storedFloatCount(network.plan), "loaded \(size) bytes, the network stores \(WeightsWriter.storedFloatCount(network.plan)) floats")
            guard network.plan.flops < 50_000_000 else { continue }
            check(run(network) == run(fileNetwork), "file and memory loads give different outputs")
        case (.failure(let error), .success):
            fatalError("the file loaded, the same bytes in memory failed: \(error)")
        case (.success, .failure(let error)):
            fatalError("the bytes loaded from memory but not from the file: \(error)")
        }
    }
    return 0
}

/// The network `body` loads, or the `WeightsError` it throws (any other error is a finding).
func load(_ body: () throws -> Network) -> Result<Network, WeightsError> {
    do {
        return .success(try body())
    } catch let error as WeightsError {
        return .failure(error)
    } catch {
        fatalError("not a WeightsError: \(error)")
    }
}

/// One file per fuzzing process that each input's bytes are written to, removed at exit.
enum WeightsCopy {
    static let url: URL = {
        atexit { try? FileManager.default.removeItem(at: WeightsCopy.url) }
        return FileManager.default.temporaryDirectory
            .appendingPathComponent("fuzz-weights-\(ProcessInfo.processInfo.processIdentifier).weights")
    }()

    static func write(_ bytes: [UInt8]) -> URL {
        do {
            try Data(bytes).write(to: url)
        } catch {
            fatalError("FuzzWeights: cannot write \(url.path): \(error)")
        }
        return url
    }
}

/// Runs `network` on a constant input and then detection; returns the bit patterns of every
/// output the session keeps.
func run(_ network: Network) -> [[UInt32]] {
    let session = InferenceSession(network: network)
    var outputs: [[UInt32]] = []
    do {
        try session.forward([Float](repeating: 0.5, count: network.inputShape.count))
        for layer in network.plan.layers.indices {
            guard let values = try? session.withOutput(ofLayer: layer, { values, _ in values.map(\.bitPattern) }) else { continue }
            outputs.append(values)
        }
        let detector = try Detector(network: network)
        let image = try PlanarImage(width: 9, height: 13, channels: network.inputShape.channels, filledWith: 0.75)
        for detection in try detector.detect(image, threshold: 0.01, nmsThreshold: 0.3) {
            check(detection.confidence > 0.01, "a detection below the threshold")
        }
    } catch DetectorError.noDetectionHead(_) {
    } catch {
        fatalError("a loaded network failed to run: \(error)")
    }
    return outputs
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

#if FUZZ_REPLAY
// A declaration, not a statement: libFuzzer builds parse this file as a library.
let replayed: Void = replayInputs("FuzzWeights", fuzz)
#endif
