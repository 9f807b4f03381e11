import Darknet
import Foundation

// libFuzzer target: one input is a `.weights` file, loaded against every network below.
// A load must fail with a `WeightsError`, or succeed having consumed exactly the bytes the
// network needs (no silent truncation, no ignored tail); a small network that loads is run
// and decoded, so extreme-but-finite parameters reach the kernels and the decoder.
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
    for spec in Networks.specs {
        let network: Network
        do {
            network = try Network(spec: spec, weights: bytes, weightsFile: "fuzz.weights")
        } catch let error as WeightsError {
            check(error.offset >= 0 && error.offset <= size, "offset \(error.offset) outside a \(size)-byte file: \(error)")
            check(error.layer.map { spec.layers.indices.contains($0) } ?? true, "no such layer: \(error)")
            continue
        } catch {
            fatalError("not a WeightsError: \(error)")
        }
        check(size == network.header.byteCount + 4 * storedFloats(network.plan), "loaded \(size) bytes, the network stores \(storedFloats(network.plan)) floats")
        guard network.plan.flops < 50_000_000 else { continue }
        run(network)
    }
    return 0
}

/// Floats the file holds for `plan`: biases, batch-norm scales, means and variances, weights.
func storedFloats(_ plan: NetworkPlan) -> Int {
    plan.layers.reduce(0) { total, layer in
        guard case .convolutional(let conv) = layer.spec.kind else { return total }
        let kernel = layer.inputShape.channels / conv.groups * conv.size * conv.size
        return total + conv.filters * (conv.batchNormalize ? 4 : 1) + conv.filters * kernel
    }
}

func run(_ network: Network) {
    let session = InferenceSession(network: network)
    do {
        try session.forward([Float](repeating: 0.5, count: network.inputShape.count))
        let detector = try Detector(network: network)
        let image = try Image(width: 9, height: 13, channels: network.inputShape.channels, filledWith: 0.75)
        for detection in try detector.detect(image, threshold: 0.01, nmsThreshold: 0.3) {
            check(detection.confidence > 0.01, "a detection below the threshold")
        }
    } catch DetectorError.noDetectionHead {
    } catch {
        fatalError("a loaded network failed to run: \(error)")
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
